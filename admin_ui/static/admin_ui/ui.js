// Small admin helpers kept apart from admin.js: copy buttons (the share-link page).
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

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-copy]").forEach(wireCopy);
  });
})();
