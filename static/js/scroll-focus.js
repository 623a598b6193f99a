/* A table or box that scrolls sideways (on a phone) can be reached and scrolled with the
   keyboard: it gets tabindex="0" while it scrolls, and loses it when it no longer does.
   Runs on load, after every HTMX swap and when the window is resized. Without JavaScript
   the pages work the same; browsers that focus scrollers themselves need none of this. */
(function () {
  var SELECTOR = "table.grid, .scroll, .histdrm-box";
  function mark() {
    var boxes = document.querySelectorAll(SELECTOR);
    for (var i = 0; i < boxes.length; i++) {
      var box = boxes[i];
      var scrolls = box.scrollWidth > box.clientWidth + 1 && getComputedStyle(box).overflowX !== "visible";
      if (scrolls && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("data-scroll-focus", "");
      } else if (!scrolls && box.hasAttribute("data-scroll-focus")) {
        box.removeAttribute("tabindex");
        box.removeAttribute("data-scroll-focus");
      }
    }
  }
  document.addEventListener("DOMContentLoaded", mark);
  document.addEventListener("htmx:afterSettle", mark);
  window.addEventListener("resize", mark);
})();
