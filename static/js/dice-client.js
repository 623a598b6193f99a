/* Verifiable dice (docs/verifiable-dice.md): the roller's own random value. Every form a page
   sends by POST, and every HTMX request, carries a fresh "dice_client" of 32 random bytes in
   hex; the server mixes it into the rolls the request makes. Without JavaScript nothing is
   added and the page works as before. */
(function () {
  "use strict";
  var FIELD = "dice_client";
  function fresh() {
    var bytes = new Uint8Array(32);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }
  if (!window.crypto || !window.crypto.getRandomValues) { return; }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || (form.method || "").toLowerCase() !== "post") { return; }
    var input = form.querySelector("input[name='" + FIELD + "']");
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = FIELD;
      form.appendChild(input);
    }
    input.value = fresh();
  }, true);
  document.addEventListener("htmx:configRequest", function (event) {
    if ((event.detail.verb || "").toLowerCase() === "post") {
      event.detail.parameters[FIELD] = fresh();
    }
  });
})();
