/* The perimeter maps' hex links (templates/refit/perimeters/page.html, scenario_control.html):
   each is a plain link (?hex=NAME…) that works without JavaScript. With htmx, a click asks for
   the link's address as an hx-get on each link did: the answer swapped where the map's group
   says (its hx-target and hx-swap: the "#selection" line), with the svg's hx-include. One
   listener for the whole map instead of an hx-get written on each of its 1,700–2,900 hexes.
   A click with a modifier key (a new tab, a new window) is left to the browser. */
(function () {
  var SELECTOR = '.perimeter-map a[href^="?hex="]';
  document.addEventListener("click", function (event) {
    if (!window.htmx || event.defaultPrevented || event.button !== 0) return;
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    var link = event.target.closest ? event.target.closest(SELECTOR) : null;
    if (!link) return;
    event.preventDefault();
    window.htmx.ajax("GET", link.getAttribute("href"), { source: link });
  });
})();
