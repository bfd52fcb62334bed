// Small admin helpers kept apart from admin.js: copy buttons and the phone navigation toggle.
// No inline handlers (the Content-Security-Policy forbids them): everything is wired here.
(function () {
  "use strict";

  function wireCopy(button) {
    var target = document.querySelector(button.getAttribute("data-copy"));
    var status = button.closest(".field") && button.closest(".field").querySelector("[data-copy-status]");
    button.addEventListener("click", function () {
      if (!target) return;
      target.select();
      var done = function () { if (status) status.textContent = "Copied to the clipboard."; };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(target.value).then(done, function () { document.execCommand("copy"); done(); });
      } else {
        document.execCommand("copy");
        done();
      }
    });
  }

  function wireNavToggle(button) {
    var nav = document.getElementById(button.getAttribute("aria-controls"));
    if (!nav) return;
    button.hidden = false;
    nav.classList.add("collapsible");
    button.addEventListener("click", function () {
      var open = button.getAttribute("aria-expanded") !== "true";
      button.setAttribute("aria-expanded", String(open));
      nav.classList.toggle("open", open);
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && button.getAttribute("aria-expanded") === "true") {
        button.setAttribute("aria-expanded", "false");
        nav.classList.remove("open");
        button.focus();
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-copy]").forEach(wireCopy);
    document.querySelectorAll("[data-nav-toggle]").forEach(wireNavToggle);
  });
})();
