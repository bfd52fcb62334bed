// A menu button for a navigation that collapses on small screens (the public header and the admin sidebar).
// <button data-nav-toggle aria-controls="ID" aria-expanded="false" hidden> is shown only when this script runs,
// so without JavaScript the navigation simply stays open. Escape closes it and returns focus to the button.
(function () {
  "use strict";

  function wire(button) {
    var nav = document.getElementById(button.getAttribute("aria-controls"));
    if (!nav) return;
    var set = function (open) {
      button.setAttribute("aria-expanded", String(open));
      nav.classList.toggle("open", open);
    };
    button.hidden = false;
    nav.classList.add("collapsible");
    button.addEventListener("click", function () { set(button.getAttribute("aria-expanded") !== "true"); });
    var escape = function (event) {
      if (event.key === "Escape" && button.getAttribute("aria-expanded") === "true") { set(false); button.focus(); }
    };
    nav.addEventListener("keydown", escape);
    button.addEventListener("keydown", escape);
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-nav-toggle]").forEach(wire);
  });
})();
