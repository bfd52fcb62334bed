/* Bulk actions on a content list: a select-all box, a live count, and a check before submitting.
   The row checkboxes and buttons are plain form controls (keyboard operable, work without this file). */
(function () {
  "use strict";
  const form = document.querySelector("[data-bulk-form]");
  if (!form) return;
  const all = document.querySelector("[data-bulk-all]");
  const count = form.querySelector("[data-bulk-count]");
  const items = () => Array.from(document.querySelectorAll("[data-bulk-item]"));
  let kept = new Set();  // ticked ids survive a live refresh of the rows

  function update() {
    const boxes = items(), ticked = boxes.filter((b) => b.checked);
    kept = new Set(ticked.map((b) => b.value));
    count.textContent = ticked.length ? `${ticked.length} selected` : "None selected.";
    if (all) {
      all.checked = boxes.length > 0 && ticked.length === boxes.length;
      all.indeterminate = ticked.length > 0 && ticked.length < boxes.length;
    }
  }
  if (all) {
    all.hidden = false;
    all.addEventListener("change", () => { items().forEach((b) => { b.checked = all.checked; }); update(); });
  }
  document.addEventListener("change", (event) => { if (event.target.matches("[data-bulk-item]")) update(); });
  const body = document.getElementById("entry-rows");
  if (body) new MutationObserver(() => { items().forEach((b) => { b.checked = kept.has(b.value); }); update(); })
    .observe(body, { childList: true });

  form.addEventListener("submit", (event) => {
    const ticked = items().filter((b) => b.checked).length;
    const button = event.submitter;
    if (!ticked) {
      event.preventDefault();
      count.textContent = "Select at least one item first.";
      return;
    }
    if (button && button.dataset.bulkConfirm && !window.confirm(button.dataset.bulkConfirm)) event.preventDefault();
  });
  update();
})();
