/* Menu editor: an ordered list with a nesting depth per item, saved as JSON in one form post (items_json).
   Items are shown by what they link to (titles from the server, never ids). Reorder and nest by dragging
   (native HTML drag and drop: moving an item right while dragging nests it) or with the ↑ ↓ ← → buttons,
   which keep working from the keyboard and on touch screens. */
(function () {
  "use strict";
  const $ = (sel, root) => (root || document).querySelector(sel);
  const form = $("[data-menu-editor]");
  if (!form) return;
  const store = $("#items_json", form), list = $("[data-menu-list]", form), status = $("[data-menu-status]", form);
  const NEST_PX = 32;  // how far to the right a drag must go to nest one level deeper
  let items = JSON.parse(store.value || "[]");
  let dragging = null;  // {index, startX}

  const depthOf = (item) => item.depth || 0;
  const describe = (item) => {
    if (item.type === "custom") return item.customUrl;
    if (item.type === "collection") return `All of ${item.title || item.referenceCollection}`;
    return item.title ? `${item.kind || item.type}: ${item.title}` : `${item.type}: ${item.referenceCollection || ""}`;
  };
  const say = (text) => { status.textContent = text; };

  /* An item and its descendants (the items after it that are deeper) move together. */
  function subtreeEnd(index) {
    let end = index + 1;
    while (end < items.length && depthOf(items[end]) > depthOf(items[index])) end += 1;
    return end;
  }
  /* Depths stay valid: the first item is at the top, and no item is more than one level below the one above. */
  function normalize() {
    items.forEach((item, i) => { item.depth = Math.max(0, Math.min(depthOf(item), i ? depthOf(items[i - 1]) + 1 : 0)); });
  }
  function position(index) {
    const parent = items.slice(0, index).reverse().find((it) => depthOf(it) < depthOf(items[index]));
    return `${items[index].label}: position ${index + 1} of ${items.length}${parent ? `, under ${parent.label}` : ", top level"}`;
  }

  const tool = (label, title, action, disabled) => {
    const b = document.createElement("button");
    b.type = "button"; b.className = "button small ghost"; b.textContent = label;
    b.setAttribute("aria-label", title); b.title = title; b.disabled = disabled;
    b.addEventListener("click", () => {
      const at = action();
      render();
      if (typeof at === "number") say(position(at));
      const again = list.querySelector(`[aria-label="${CSS.escape(title)}"]`);
      if (again && !again.disabled) again.focus();
    });
    return b;
  };
  const swap = (from, to) => { const [it] = items.splice(from, 1); items.splice(to, 0, it); return to; };

  function render() {
    normalize();
    list.innerHTML = "";
    items.forEach((item, i) => {
      const li = document.createElement("li");
      li.className = `indent-${Math.min(depthOf(item), 10)}`;
      li.draggable = true;
      li.dataset.index = String(i);
      const handle = document.createElement("span");
      handle.className = "handle"; handle.textContent = "⠿"; handle.setAttribute("aria-hidden", "true");
      const label = document.createElement("span");
      label.className = "label";
      const name = document.createElement("strong"); name.textContent = item.label;
      const small = document.createElement("small"); small.textContent = describe(item);
      label.append(name, small);
      const tools = document.createElement("span"); tools.className = "tools";
      tools.append(
        tool("↑", `Move ${item.label} up`, () => swap(i, i - 1), i === 0),
        tool("↓", `Move ${item.label} down`, () => swap(i, i + 1), i === items.length - 1),
        tool("←", `Outdent ${item.label}`, () => { item.depth = depthOf(item) - 1; return i; }, !depthOf(item)),
        tool("→", `Indent ${item.label}`, () => { item.depth = depthOf(item) + 1; return i; },
          i === 0 || depthOf(item) > depthOf(items[i - 1])),
        tool("✕", `Remove ${item.label}`, () => { items.splice(i, 1); say(`${item.label} removed`); }, false),
      );
      li.append(handle, label, tools);
      list.appendChild(li);
    });
    if (!items.length) list.innerHTML = '<li class="muted">No items yet: add one below.</li>';
    store.value = JSON.stringify(items);
  }

  /* Drag and drop. The drop line goes before or after the row under the pointer; the horizontal distance
     dragged decides the depth, within what the row above allows. */
  function clearMarks() { list.querySelectorAll(".drop-before, .drop-after").forEach((li) => li.classList.remove("drop-before", "drop-after")); }
  function target(event) {
    const li = event.target.closest && event.target.closest("li[data-index]");
    if (!li) return null;
    const box = li.getBoundingClientRect();
    return { index: Number(li.dataset.index), after: event.clientY > box.top + box.height / 2, li };
  }
  list.addEventListener("dragstart", (event) => {
    const li = event.target.closest("li[data-index]");
    if (!li) return;
    dragging = { index: Number(li.dataset.index), startX: event.clientX };
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", items[dragging.index].label);
    li.classList.add("dragging");
  });
  list.addEventListener("dragover", (event) => {
    if (!dragging) return;
    const at = target(event);
    if (!at) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    clearMarks();
    at.li.classList.add(at.after ? "drop-after" : "drop-before");
  });
  list.addEventListener("dragleave", (event) => { if (!list.contains(event.relatedTarget)) clearMarks(); });
  list.addEventListener("dragend", () => { clearMarks(); dragging = null; render(); });
  list.addEventListener("drop", (event) => {
    if (!dragging) return;
    event.preventDefault();
    const at = target(event);
    const from = dragging.index, end = subtreeEnd(from);
    const shift = Math.round((event.clientX - dragging.startX) / NEST_PX);
    dragging = null;
    clearMarks();
    if (!at) return;
    let to = at.after ? subtreeEnd(at.index) : at.index;
    if (at.after && at.index >= from && at.index < end) to = end;  // dropped on itself: only the depth changes
    if (to > from && to < end) return;  // into its own subtree
    const moving = items.splice(from, end - from);
    if (to > from) to -= moving.length;
    const above = to > 0 ? depthOf(items[to - 1]) : -1;
    const wanted = Math.max(0, Math.min(depthOf(moving[0]) + shift, above + 1));
    const delta = wanted - depthOf(moving[0]);
    moving.forEach((item) => { item.depth = depthOf(item) + delta; });
    items.splice(to, 0, ...moving);
    render();
    say(position(to));
  });
  render();

  /* Adding an item: a web address, content found by title, a term or a collection, each chosen by name. */
  const add = $("[data-menu-add]");
  add.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(add).entries());
    const item = { label: data.label, type: data.type, depth: 0, target: data.target || "" };
    const problem = $("[data-menu-add-error]", add);
    problem.textContent = "";
    if (data.type === "page" || data.type === "post") {
      if (!data.pickId) { problem.textContent = "Find and pick the content this item links to."; $("#mi_search").focus(); return; }
      Object.assign(item, { referenceCollection: data.pickCollection, referenceId: data.pickId, title: data.pickTitle });
      item.kind = data.type === "post" ? "Post" : "Page";
    } else if (data.type === "taxonomy") {
      const option = add.elements.term.selectedOptions[0];
      if (!option || !option.value) { problem.textContent = "Add a term under Taxonomies first."; return; }
      const [taxonomy, id] = option.value.split(" ");
      Object.assign(item, { referenceCollection: taxonomy, referenceId: id, title: option.dataset.title, kind: option.dataset.kind });
    } else if (data.type === "collection") {
      const option = add.elements.collection.selectedOptions[0];
      if (!option) { problem.textContent = "There is no collection to link to yet."; return; }
      Object.assign(item, { referenceCollection: option.value, title: option.textContent });
    } else {
      if (!data.label) { problem.textContent = "Give the item a label."; $("#mi_label").focus(); return; }
      item.customUrl = data.customUrl;
    }
    item.label = data.label || item.title;
    items.push(item);
    render();
    say(`${item.label} added: position ${items.length} of ${items.length}`);
    const type = data.type;
    add.reset();
    add.elements.type.value = type;
    add.elements.type.dispatchEvent(new Event("change"));
    (type === "page" || type === "post" ? $("#mi_search") : $("#mi_label")).focus();
  });
})();
