// The references widget: a sortable list of linked items with a search to add more. The textarea (ids, one per
// line) is what the form posts; this script hides it and keeps it in step with the list. Reorder by dragging, with
// the ↑ ↓ buttons (keyboard and touch) or Alt+Arrow on a focused row; a live region says what changed.
(() => {
  "use strict";
  const button = (text, label, data) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "button small ghost";
    b.textContent = text;
    b.setAttribute("aria-label", label);
    b.title = label;
    b.dataset[data] = "";
    return b;
  };
  // A row as the server renders it (title and meta spans, data-id, data-title), plus the handle and the buttons.
  const decorate = (li) => {
    const name = li.dataset.title;
    const handle = document.createElement("span");
    handle.className = "handle";
    handle.textContent = "⠿";
    handle.setAttribute("aria-hidden", "true");
    const tools = document.createElement("span");
    tools.className = "tools";
    tools.append(
      button("↑", `Move ${name} up`, "refsUp"),
      button("↓", `Move ${name} down`, "refsDown"),
      button("✕", `Remove ${name}`, "refsRemove"),
    );
    li.draggable = true;
    li.tabIndex = 0;
    li.prepend(handle);
    li.append(tools);
    return li;
  };
  const row = (hit) => {
    const li = document.createElement("li");
    li.dataset.id = hit.id;
    li.dataset.title = hit.title || hit.slug;
    const label = document.createElement("span");
    label.className = "label";
    const title = document.createElement("strong");
    title.textContent = li.dataset.title;
    const meta = document.createElement("small");
    meta.textContent = `${hit.collectionLabel || hit.collection} · ${hit.status}`;
    label.append(title, meta);
    li.append(label);
    return decorate(li);
  };
  const init = (root) => {
    if (root.dataset.refsReady) return;
    root.dataset.refsReady = "1";
    const list = root.querySelector("[data-refs-list]");
    const source = root.querySelector("[data-refs-source]");
    const search = root.querySelector("[data-refs-search]");
    const results = root.querySelector("[data-refs-results]");
    const status = root.querySelector("[data-refs-status]");
    const max = Number(root.dataset.max || 0);
    const rows = () => [...list.children];
    const say = (text) => { status.textContent = text; };
    const refresh = () => {
      rows().forEach((li, i) => {
        li.querySelector("[data-refs-up]").disabled = i === 0;
        li.querySelector("[data-refs-down]").disabled = i === list.children.length - 1;
      });
      root.classList.toggle("over-max", max > 0 && list.children.length > max);
    };
    const sync = () => {
      refresh();
      source.value = rows().map((li) => li.dataset.id).join("\n");
      source.dispatchEvent(new Event("input", { bubbles: true })); // the unsaved-changes guard and autosave
    };
    const where = (li) => {
      const at = rows().indexOf(li) + 1;
      const over = max > 0 && list.children.length > max ? ` More than ${max}: remove one before saving.` : "";
      return `${li.dataset.title}: position ${at} of ${list.children.length}.${over}`;
    };
    const move = (li, up) => {
      if (up && li.previousElementSibling) list.insertBefore(li, li.previousElementSibling);
      else if (!up && li.nextElementSibling) list.insertBefore(li.nextElementSibling, li);
      else return;
      sync();
      say(where(li));
    };
    rows().forEach(decorate);
    source.hidden = true;
    search.hidden = false;
    root.querySelector(".refs-nojs")?.remove();
    refresh(); // not sync: opening the page changes nothing
    let dragged = null;
    list.addEventListener("dragstart", (e) => {
      dragged = e.target.closest("li");
      if (!dragged) return;
      e.dataTransfer.effectAllowed = "move";
      e.dataTransfer.setData("text/plain", dragged.dataset.title);
      dragged.classList.add("dragging");
    });
    list.addEventListener("dragover", (e) => {
      const over = e.target.closest("li");
      if (!dragged || !over) return;
      e.preventDefault();
      if (over === dragged) return;
      const after = e.clientY > over.getBoundingClientRect().top + over.offsetHeight / 2;
      list.insertBefore(dragged, after ? over.nextSibling : over);
    });
    list.addEventListener("drop", (e) => e.preventDefault());
    list.addEventListener("dragend", () => {
      if (!dragged) return;
      dragged.classList.remove("dragging");
      sync();
      say(where(dragged));
      dragged = null;
    });
    list.addEventListener("keydown", (e) => {
      const li = e.target.closest("li");
      if (!li || e.target !== li || !e.altKey || !["ArrowUp", "ArrowDown"].includes(e.key)) return;
      e.preventDefault();
      move(li, e.key === "ArrowUp");
      li.focus();
    });
    list.addEventListener("click", (e) => {
      const b = e.target.closest("button");
      const li = b?.closest("li");
      if (!li) return;
      if (b.matches("[data-refs-remove]")) {
        const next = li.nextElementSibling || li.previousElementSibling;
        li.remove();
        sync();
        say(`${li.dataset.title} removed.`);
        (next?.querySelector("[data-refs-remove]") || search).focus();
        return;
      }
      move(li, b.matches("[data-refs-up]"));
      // Moving the row took focus off the button: back to it, or to its opposite once the row is at the end.
      (b.disabled ? li.querySelector(b.matches("[data-refs-up]") ? "[data-refs-down]" : "[data-refs-up]") : b).focus();
    });
    let timer = 0;
    let asked = 0;
    const find = async () => {
      const q = search.value.trim();
      const mine = ++asked;
      if (!q) { results.replaceChildren(); return; }
      const response = await fetch(`${root.dataset.searchUrl}&q=${encodeURIComponent(q)}`, { credentials: "same-origin" });
      if (mine !== asked) return; // a later search answers instead
      results.replaceChildren();
      if (!response.ok) { say("The search failed; try again."); return; }
      const taken = new Set(rows().map((li) => li.dataset.id));
      const hits = (await response.json()).results.filter((hit) => !taken.has(hit.id));
      for (const hit of hits) {
        const li = document.createElement("li");
        const title = hit.title || hit.slug;
        const add = document.createElement("button");
        add.type = "button";
        add.className = "refs-add";
        add.setAttribute("aria-label", `Add ${title} (${hit.collectionLabel || hit.collection}, ${hit.status})`);
        const name = document.createElement("span");
        name.textContent = title;
        const meta = document.createElement("small");
        meta.textContent = `${hit.collectionLabel || hit.collection} · ${hit.status}`;
        add.append(name, meta);
        add.addEventListener("click", () => {
          const added = row(hit);
          list.append(added);
          const next = li.nextElementSibling || li.previousElementSibling;
          li.remove();
          sync();
          say(`Added ${where(added)}`);
          (next?.querySelector("button") || search).focus();
        });
        li.append(add);
        results.append(li);
      }
      say(hits.length ? `${hits.length} found.` : `Nothing found for “${q}” that is not in the list already.`);
    };
    search.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(find, 200);
    });
    search.addEventListener("keydown", (e) => {
      if (e.key === "Enter") { e.preventDefault(); clearTimeout(timer); find(); } // not the form's submit
      if (e.key === "ArrowDown") { e.preventDefault(); results.querySelector("button")?.focus(); }
    });
  };
  const start = () => document.querySelectorAll("[data-refs-picker]").forEach(init);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
