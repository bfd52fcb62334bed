/* EmDash admin: small progressive enhancements. Every page works without this file except live updates
   (the menu editor is menu-editor.js). */
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

  /* List filters fold behind "Filters" so a phone shows the first rows on the first screen; a wide screen has
     room for them, so they start open there. */
  if (window.matchMedia("(min-width: 901px)").matches) $$("details[data-open-wide]").forEach((d) => { d.open = true; });

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

  /* Schema builder: the slug follows the label until the user edits it (admin_ui/views/schema.py derives the
     same slug on the server when it is left empty). */
  const slugFrom = (label) => {
    const slug = label.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 63);
    return /^[0-9]/.test(slug) ? `f_${slug}` : slug;
  };
  $$("[data-slug-from]").forEach((slug) => {
    const label = document.getElementById(slug.dataset.slugFrom);
    if (!label) return;
    let edited = slug.value !== "" && slug.value !== slugFrom(label.value);
    slug.addEventListener("input", () => { edited = slug.value !== ""; });
    label.addEventListener("input", () => { if (!edited) slug.value = slugFrom(label.value); });
  });

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
