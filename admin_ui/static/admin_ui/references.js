// The references widget: a sortable list of linked items with a search to add more. The textarea (ids, one per
// line) is what the form posts; this script hides it and keeps it in step with the list.
(() => {
  "use strict";
  const init = (root) => {
    if (root.dataset.refsReady) return;
    root.dataset.refsReady = "1";
    const list = root.querySelector("[data-refs-list]");
    const source = root.querySelector("[data-refs-source]");
    const search = root.querySelector("[data-refs-search]");
    const results = root.querySelector("[data-refs-results]");
    const sync = () => {
      source.value = [...list.children].map((li) => li.dataset.id).join("\n");
      source.dispatchEvent(new Event("input", { bubbles: true })); // the unsaved-changes guard and autosave
    };
    const item = (hit) => {
      const li = document.createElement("li");
      li.draggable = true;
      li.tabIndex = 0;
      li.dataset.id = hit.id;
      const title = document.createElement("span");
      title.className = "refs-title";
      title.textContent = hit.title || hit.slug;
      const meta = document.createElement("span");
      meta.className = "muted small";
      meta.textContent = ` ${hit.collection} · ${hit.status} `;
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "button small ghost";
      remove.dataset.refsRemove = "";
      remove.textContent = "Remove";
      li.append(title, meta, remove);
      return li;
    };
    source.hidden = true;
    search.hidden = false;
    root.querySelector(".refs-nojs")?.remove();
    let dragged = null;
    list.addEventListener("dragstart", (e) => { dragged = e.target.closest("li"); });
    list.addEventListener("dragover", (e) => {
      const over = e.target.closest("li");
      if (!dragged || !over || over === dragged) return;
      e.preventDefault();
      const after = e.clientY > over.getBoundingClientRect().top + over.offsetHeight / 2;
      over.parentNode.insertBefore(dragged, after ? over.nextSibling : over);
    });
    list.addEventListener("dragend", () => { dragged = null; sync(); });
    list.addEventListener("keydown", (e) => {
      const li = e.target.closest("li");
      if (!li || !e.altKey || !["ArrowUp", "ArrowDown"].includes(e.key)) return;
      e.preventDefault();
      if (e.key === "ArrowUp" && li.previousElementSibling) list.insertBefore(li, li.previousElementSibling);
      if (e.key === "ArrowDown" && li.nextElementSibling) list.insertBefore(li.nextElementSibling, li);
      li.focus();
      sync();
    });
    list.addEventListener("click", (e) => {
      if (!e.target.closest("[data-refs-remove]")) return;
      e.target.closest("li").remove();
      sync();
    });
    let timer = 0;
    search.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        results.replaceChildren();
        const q = search.value.trim();
        if (!q) return;
        const response = await fetch(`${root.dataset.searchUrl}&q=${encodeURIComponent(q)}`, { credentials: "same-origin" });
        if (!response.ok) return;
        const taken = new Set([...list.children].map((li) => li.dataset.id));
        for (const hit of (await response.json()).results) {
          if (taken.has(hit.id)) continue;
          const li = document.createElement("li");
          const add = document.createElement("button");
          add.type = "button";
          add.className = "button small ghost";
          add.textContent = `Add ${hit.title || hit.slug} (${hit.collection}, ${hit.status})`;
          add.addEventListener("click", () => { list.append(item(hit)); li.remove(); sync(); });
          li.append(add);
          results.append(li);
        }
      }, 200);
    });
  };
  const start = () => document.querySelectorAll("[data-refs-picker]").forEach(init);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
