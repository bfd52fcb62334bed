/* Menu editor: find the content a menu item links to by typing part of its title (an ARIA combobox).
   Picking fills the add form's hidden pickCollection/pickId/pickTitle, which admin.js reads. */
(function () {
  "use strict";
  const box = document.querySelector("[data-menu-picker]");
  if (!box) return;
  const form = box.closest("form");
  const input = box.querySelector("[role=combobox]");
  const list = box.querySelector("[role=listbox]");
  const chosen = box.querySelector("[data-picker-chosen]");
  let results = [], active = -1, timer = 0, asked = 0;

  function close() {
    list.hidden = true; input.setAttribute("aria-expanded", "false"); input.removeAttribute("aria-activedescendant");
    active = -1;
  }
  function highlight(index) {
    active = index;
    Array.from(list.children).forEach((li, i) => li.setAttribute("aria-selected", i === index ? "true" : "false"));
    if (index >= 0 && list.children[index]) {
      input.setAttribute("aria-activedescendant", list.children[index].id);
      list.children[index].scrollIntoView({ block: "nearest" });
    }
  }
  function show(found) {
    results = found;
    list.innerHTML = "";
    if (!found.length) {
      const li = document.createElement("li");
      li.className = "muted"; li.textContent = "No content matches."; li.setAttribute("aria-disabled", "true");
      li.id = "mi_opt_none"; list.appendChild(li);
    }
    found.forEach((r, i) => {
      const li = document.createElement("li");
      li.id = `mi_opt_${i}`; li.setAttribute("role", "option"); li.setAttribute("aria-selected", "false");
      li.textContent = `${r.title} — ${r.collectionLabel}, ${r.status}${r.locale ? ", " + r.locale : ""}`;
      li.addEventListener("mousedown", (event) => { event.preventDefault(); pick(i); });
      list.appendChild(li);
    });
    list.hidden = false; input.setAttribute("aria-expanded", "true");
    highlight(found.length ? 0 : -1);
  }
  function pick(index) {
    const r = results[index];
    if (!r) return;
    form.elements.pickCollection.value = r.collection;
    form.elements.pickId.value = r.id;
    form.elements.pickTitle.value = r.title;
    chosen.textContent = `Links to: ${r.title} (${r.collectionLabel}, ${r.status})`;
    input.value = r.title;
    close();
  }
  async function search() {
    const q = input.value.trim();
    if (!q) { close(); return; }
    const ticket = ++asked;
    const response = await fetch(`${box.dataset.searchUrl}?q=${encodeURIComponent(q)}`, { credentials: "same-origin" });
    if (ticket !== asked) return;  // a newer keystroke's answer wins
    if (!response.ok) { chosen.textContent = "Search is not available right now."; return; }
    show((await response.json()).results);
  }
  input.addEventListener("input", () => {
    form.elements.pickId.value = ""; chosen.textContent = "";
    clearTimeout(timer); timer = setTimeout(search, 200);
  });
  input.addEventListener("keydown", (event) => {
    const open = !list.hidden && results.length;
    if (event.key === "ArrowDown" && open) { event.preventDefault(); highlight(Math.min(active + 1, results.length - 1)); }
    else if (event.key === "ArrowUp" && open) { event.preventDefault(); highlight(Math.max(active - 1, 0)); }
    else if (event.key === "Enter" && open && active >= 0) { event.preventDefault(); pick(active); }
    else if (event.key === "Escape" && !list.hidden) { event.preventDefault(); close(); }
  });
  input.addEventListener("blur", () => setTimeout(close, 100));
  form.addEventListener("reset", () => {  // hidden inputs are not reset by the form: clear them here
    ["pickCollection", "pickId", "pickTitle"].forEach((name) => { form.elements[name].value = ""; });
    chosen.textContent = ""; results = []; close();
  });
})();
