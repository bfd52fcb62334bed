/* EmDash admin: small progressive enhancements. Every page works without this file except the menu
   editor's buttons and live updates. */
(function () {
  "use strict";
  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));

  function csrfToken(form) {
    const input = $("input[name=csrfmiddlewaretoken]", form || document);
    return input ? input.value : "";
  }

  /* Forms that destroy something ask first. */
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) event.preventDefault();
  });

  /* Filters that apply as soon as they change (no inline handlers: the Content-Security-Policy forbids them). */
  $$("select[data-autosubmit]").forEach((select) => select.addEventListener("change", () => select.form.submit()));

  /* Show the inputs that apply to the chosen type (schema builder, menu editor). */
  function wireShowFor(form, selectName) {
    const select = form.elements[selectName];
    if (!select) return;
    const update = () => $$("[data-show-for]", form).forEach((el) => {
      el.hidden = !el.dataset.showFor.split(" ").includes(select.value);
    });
    select.addEventListener("change", update);
    update();
  }
  $$("[data-field-form]").forEach((form) => wireShowFor(form, "type"));

  /* Portable Text editor: toolbar buttons and shortcuts insert the Markdown the server converts. */
  function wrap(area, before, after, placeholder) {
    const { selectionStart: s, selectionEnd: e, value } = area;
    const text = value.slice(s, e) || placeholder;
    area.setRangeText(before + text + after, s, e, "end");
    area.setSelectionRange(s + before.length, s + before.length + text.length);
    area.focus();
  }
  function prefixLines(area, prefix) {
    const { selectionStart: s, selectionEnd: e, value } = area;
    const start = value.lastIndexOf("\n", s - 1) + 1;
    const block = value.slice(start, e).split("\n").map((line) => prefix + line).join("\n");
    area.setRangeText(block, start, e, "end");
    area.focus();
  }
  const FORMATS = {
    bold: (a) => wrap(a, "**", "**", "bold text"),
    italic: (a) => wrap(a, "*", "*", "italic text"),
    code: (a) => wrap(a, "`", "`", "code"),
    link: (a) => {
      const url = window.prompt("Link address (https://…)", "https://");
      if (url) wrap(a, "[", "](" + url.trim() + ")", "link text");
    },
    heading: (a) => prefixLines(a, "## "),
    bullet: (a) => prefixLines(a, "- "),
    number: (a) => prefixLines(a, "1. "),
    quote: (a) => prefixLines(a, "> "),
  };
  $$("[data-pt-editor]").forEach((editor) => {
    const area = $("textarea", editor);
    $$("[data-md]", editor).forEach((button) => button.addEventListener("click", () => FORMATS[button.dataset.md](area)));
    area.addEventListener("keydown", (event) => {
      if (!(event.ctrlKey || event.metaKey)) return;
      const key = { b: "bold", i: "italic", k: "link" }[event.key.toLowerCase()];
      if (key) { event.preventDefault(); FORMATS[key](area); }
    });
  });

  /* Image pickers show the chosen picture. */
  $$("[data-media-picker]").forEach((picker) => {
    const select = $("select", picker), img = $("img", picker);
    const update = () => {
      const option = select.selectedOptions[0];
      const url = option && option.dataset.preview;
      img.hidden = !url;
      if (url) img.src = url;
    };
    select.addEventListener("change", update);
    update();
  });

  /* Media library: click an image to set its focal point (the number fields are the no-script way). */
  $$("[data-focal]").forEach((box) => {
    const image = $("[data-focal-image]", box);
    const mark = $(".focal-mark", box);
    const x = $("[data-focal-x]", box);
    const y = $("[data-focal-y]", box);
    const show = () => {
      mark.style.left = `${Number(x.value) * 100}%`;
      mark.style.top = `${Number(y.value) * 100}%`;
    };
    image.addEventListener("click", (event) => {
      const rect = image.getBoundingClientRect();
      const clamp = (v) => Math.min(1, Math.max(0, v)).toFixed(2);
      x.value = clamp((event.clientX - rect.left) / rect.width);
      y.value = clamp((event.clientY - rect.top) / rect.height);
      show();
    });
    x.addEventListener("input", show);
    y.addEventListener("input", show);
    show();
  });

  /* Media library: drop files to upload them (the same endpoint as the file picker). */
  $$("[data-dropzone]").forEach((zone) => {
    const status = $("[data-dropzone-status]", zone);
    const send = async (files) => {
      let failed = 0;
      for (const [index, file] of Array.from(files).entries()) {
        status.textContent = `Uploading ${index + 1} of ${files.length}: ${file.name}…`;
        const body = new FormData();
        body.append("file", file);
        const response = await fetch(zone.action, {
          method: "POST", body, credentials: "same-origin",
          headers: { "X-CSRFToken": csrfToken(zone), Accept: "application/json" },
        });
        if (!response.ok) failed += 1;
      }
      status.textContent = failed ? `${failed} upload(s) failed.` : "Uploaded.";
      window.location.reload();
    };
    ["dragenter", "dragover"].forEach((type) => zone.addEventListener(type, (event) => {
      event.preventDefault(); zone.classList.add("over");
    }));
    ["dragleave", "drop"].forEach((type) => zone.addEventListener(type, () => zone.classList.remove("over")));
    zone.addEventListener("drop", (event) => {
      event.preventDefault();
      if (event.dataTransfer.files.length) send(event.dataTransfer.files);
    });
  });

  /* Copy buttons (the new API token). */
  $$("[data-copy]").forEach((button) => button.addEventListener("click", async () => {
    const input = $(button.dataset.copy);
    input.select();
    try { await navigator.clipboard.writeText(input.value); button.textContent = "Copied"; } catch (e) { document.execCommand("copy"); }
  }));

  /* Menu editor: an ordered list with nesting depth; saved as JSON in one form post. */
  const editorForm = $("[data-menu-editor]");
  if (editorForm) {
    const store = $("#items_json", editorForm), list = $("[data-menu-list]", editorForm);
    let items = JSON.parse(store.value || "[]");
    const save = () => { store.value = JSON.stringify(items); };
    const describe = (item) => {
      if (item.type === "custom") return item.customUrl;
      if (item.title) return `${item.type}: ${item.title} (${item.referenceCollection})`;  // entries by title, not ID
      return `${item.type}: ${item.referenceCollection || ""} ${item.referenceId || ""}`;
    };
    const tool = (label, title, action, disabled) => {
      const b = document.createElement("button");
      b.type = "button"; b.className = "button small ghost"; b.textContent = label;
      b.setAttribute("aria-label", title); b.title = title; b.disabled = disabled;
      b.addEventListener("click", () => { action(); render(); const again = $$(`[aria-label="${CSS.escape(title)}"]`, list)[0]; if (again && !again.disabled) again.focus(); });
      return b;
    };
    const move = (from, to) => { const [it] = items.splice(from, 1); items.splice(to, 0, it); };
    function render() {
      list.innerHTML = "";
      items.forEach((item, i) => {
        const li = document.createElement("li");
        li.style.marginLeft = (item.depth || 0) * 2 + "rem";
        const label = document.createElement("span");
        label.className = "label";
        label.textContent = item.label;
        const small = document.createElement("small"); small.textContent = describe(item); label.appendChild(small);
        const tools = document.createElement("span"); tools.className = "tools";
        tools.append(
          tool("↑", `Move ${item.label} up`, () => move(i, i - 1), i === 0),
          tool("↓", `Move ${item.label} down`, () => move(i, i + 1), i === items.length - 1),
          tool("←", `Outdent ${item.label}`, () => { item.depth = Math.max(0, (item.depth || 0) - 1); }, !item.depth),
          tool("→", `Indent ${item.label}`, () => { item.depth = (item.depth || 0) + 1; }, i === 0 || (item.depth || 0) > (items[i - 1].depth || 0)),
          tool("✕", `Remove ${item.label}`, () => items.splice(i, 1), false),
        );
        li.append(label, tools);
        list.appendChild(li);
      });
      if (!items.length) list.innerHTML = '<li class="muted">No items yet: add one below.</li>';
      save();
    }
    render();
    const add = $("[data-menu-add]");
    wireShowFor(add, "type");
    add.addEventListener("submit", (event) => {
      event.preventDefault();
      const data = Object.fromEntries(new FormData(add).entries());
      const item = { label: data.label, type: data.type, depth: 0, target: data.target || "" };
      const problem = $("[data-menu-add-error]", add);
      problem.textContent = "";
      if (data.type === "page" || data.type === "post") {
        if (!data.pickId) { problem.textContent = "Find and pick the content this item links to."; $("#mi_search").focus(); return; }
        item.referenceCollection = data.pickCollection; item.referenceId = data.pickId; item.title = data.pickTitle;
        item.label = data.label || data.pickTitle;
      } else if (!data.label) { problem.textContent = "Give the item a label."; $("#mi_label").focus(); return; }
      if (data.type === "custom") item.customUrl = data.customUrl;
      else if (data.type === "taxonomy" || data.type === "collection") {
        item.referenceCollection = data.referenceCollection;
        if (data.type !== "collection") item.referenceId = data.referenceId;
      }
      items.push(item);
      render();
      const type = data.type;
      add.reset(); add.elements.type.value = type; wireShowFor(add, "type");
      (type === "page" || type === "post" ? $("#mi_search") : $("#mi_label")).focus();
    });
  }

  /* Live updates: content changed through any door (an assistant over MCP, another editor, the worker). */
  const banner = $("#live-banner");
  function announce(text) {
    if (!banner) return;
    banner.textContent = text;
    banner.hidden = false;
  }
  async function refreshTable(table, message) {
    const response = await fetch(table.dataset.rowsUrl, { credentials: "same-origin" });
    if (!response.ok) return;
    $("tbody", table).innerHTML = await response.text();
    const row = $(`tr[data-entry-id="${CSS.escape(message.id)}"]`, table);
    if (row) row.classList.add("flash");
  }
  async function checkEntry(form, message) {
    // Our own autosave also announces a change: compare only once its new _rev is in the form.
    if (form.dataset.saving === "1") await new Promise((done) => form.addEventListener("autosaved", done, { once: true }));
    const response = await fetch(form.dataset.stateUrl, { credentials: "same-origin" });
    if (response.status === 404) { announce(`This item was ${message.action} by ${message.by}.`); return; }
    if (!response.ok) return;
    const state = await response.json();
    const revInput = $("[data-rev]", form);
    if (state.rev !== revInput.value) {
      const warning = $("#stale-warning");
      $("[data-stale-detail]", warning).textContent = `(${message.action} by ${message.by})`;
      warning.hidden = false;
      form.dataset.stale = "1";
    }
  }
  function onChange(message) {
    const table = $(`[data-live-collection="${CSS.escape(message.collection)}"]`);
    if (table) { refreshTable(table, message); announce(`${message.collection}: an item was ${message.action} by ${message.by}.`); }
    const form = $("[data-entry-form]");
    if (form && form.dataset.collection === message.collection && form.dataset.entryId === message.id) checkEntry(form, message);
    if ($("[data-live-refresh]")) announce(`Content changed (${message.collection}, ${message.action} by ${message.by}). Reload to see the latest numbers.`);
  }
  const liveUrl = document.body.dataset.liveUrl;
  if (liveUrl && "WebSocket" in window) {
    let delay = 1000;
    const open = () => {
      const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + liveUrl);
      socket.addEventListener("open", () => { delay = 1000; document.body.dataset.live = "connected"; });
      socket.addEventListener("message", (event) => onChange(JSON.parse(event.data)));
      socket.addEventListener("close", (event) => {
        document.body.dataset.live = "closed";
        if (event.code !== 4403) setTimeout(open, delay = Math.min(delay * 2, 30000));
      });
    };
    open();
  }

  /* Before overwriting a newer version: the server refuses a stale _rev; say so before the round trip. */
  const entryForm = $("[data-entry-form]");
  if (entryForm) entryForm.addEventListener("submit", (event) => {
    const overwrite = entryForm.elements.overwrite;
    if (entryForm.dataset.stale === "1" && !(overwrite && overwrite.checked) &&
        !window.confirm("Someone saved a newer version of this item. Saving will be refused so nothing is lost. Try anyway?")) {
      event.preventDefault();
    }
  });
})();
