// The public header shows as many menu links as fit: beside the site's name, else on a line of their own, and
// the rest fold behind a "More" button (a "priority+" menu). On phones the whole menu folds behind "Menu" (nav-toggle.js). Without JavaScript
// the links simply wrap. Runs after nav-toggle.js, which wires the button's open/close.
(function () {
  "use strict";

  var PHONE = window.matchMedia("(max-width: 48rem)");

  function setup(nav, button) {
    var main = nav.querySelector(":scope > ul");
    if (!main) return;
    var more = document.createElement("ul");
    more.className = "overflow";
    nav.appendChild(more);
    var overflows = function () { return main.scrollWidth > nav.clientWidth; };

    function fit() {
      while (more.firstChild) main.appendChild(more.firstChild);  // folded links go back, in their order
      nav.classList.remove("open", "fitted", "own-line");  // measured left-aligned: overflow past the left edge is not counted
      button.setAttribute("aria-expanded", "false");
      var phone = PHONE.matches;
      nav.classList.toggle("priority", !phone);
      button.textContent = phone ? "Menu" : "More";
      button.hidden = !phone;
      if (!phone && overflows()) nav.classList.add("own-line");  // a line of its own below the site's name
      if (!phone && overflows()) {
        button.hidden = false;  // it takes room on the line too, so measure again with it shown
        while (main.lastElementChild && overflows()) more.insertBefore(main.lastElementChild, more.firstChild);
      }
      nav.classList.add("fitted");
    }

    var pending = 0;
    var refit = function () {
      cancelAnimationFrame(pending);
      pending = requestAnimationFrame(fit);
    };
    window.addEventListener("resize", refit);
    window.addEventListener("load", refit);  // web fonts can change the widths
    fit();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var nav = document.getElementById("site-nav");
    var button = document.querySelector('[data-nav-toggle][aria-controls="site-nav"]');
    if (nav && button) setup(nav, button);
  });
})();
