/* The admin's rich-text editor for portableText fields (bundled into admin_ui/static/admin_ui/editor.js).

   Progressive enhancement of the widget in templates/admin_ui/entries/_fields.html: the server renders a
   textarea holding the field's Portable Text as JSON (usable without JavaScript); this script hides it, mounts a
   Tiptap editor on the same value, and writes Portable Text back into the textarea on every change, so the
   form posts (and autosaves) Portable Text and the server validates it. No inline script: configuration comes
   from data-* attributes and a <script type="application/json"> block. */
import { Editor } from "@tiptap/core";

import { extensions } from "./extensions.js";
import { mediaDialog } from "./media_dialog.js";
import { fromEditor, safeHref, toEditor } from "./pt.js";
import { linkBar, toolbar } from "./toolbar.js";

function readJSON(element, fallback) {
  try {
    return element && element.textContent.trim() ? JSON.parse(element.textContent) : fallback;
  } catch (error) {
    return fallback;
  }
}

function mount(root) {
  const source = root.querySelector("[data-pt-source]");
  const mediaUrls = readJSON(document.getElementById(root.dataset.mediaScript || ""), {});
  let initial;
  try {
    initial = source.value.trim() ? JSON.parse(source.value) : [];
  } catch (error) {
    return; // not Portable Text (the server reported it next to the field): leave the textarea to fix it
  }
  const surface = document.createElement("div");
  surface.className = "pt-surface";
  const disabled = source.disabled || Boolean(source.closest("fieldset[disabled]"));
  let bar = null;
  const editor = new Editor({
    element: surface,
    extensions: extensions({ onLinkShortcut: () => bar && bar.open() }),
    content: toEditor(initial, mediaUrls),
    editable: !disabled,
    injectCSS: false, // no <style> element (a strict Content-Security-Policy forbids it): admin.css has the rules
    editorProps: {
      transformPastedHTML: stripPresentation,
      attributes: {
        class: "pt-content",
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": source.dataset.labelId,
        "aria-describedby": source.getAttribute("aria-describedby") || "",
        "data-pt-content": "",
      },
    },
  });
  const sync = () => {
    source.value = JSON.stringify(fromEditor(editor.getJSON()));
    source.dispatchEvent(new Event("input", { bubbles: true }));
  };
  editor.on("update", sync);
  bar = linkBar(editor, safeHref);
  const images = mediaDialog(editor, root.dataset);
  const tools = toolbar(editor, { link: () => bar.open(), image: () => images.open() }, source.dataset.label || "text");
  source.hidden = true;
  source.setAttribute("aria-hidden", "true");
  source.tabIndex = -1;
  source.before(tools.element, bar.element, surface);
  root.append(images.element);
  root.classList.add("pt-ready");
  // The value as the editor will write it, so an untouched form does not look changed (keys get added).
  source.value = JSON.stringify(fromEditor(editor.getJSON()));
  source.defaultValue = source.value;
  root.ptEditor = editor;
}

function start() {
  document.querySelectorAll("[data-pt-editor]").forEach((root) => {
    if (!root.ptEditor) mount(root);
  });
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();

// Pasted HTML (word processors, web pages) is full of style attributes and <style> blocks. Chromium checks
// them against the page's Content-Security-Policy even in a DOMParser document, reporting one violation each,
// so they are cut from the markup before anything parses it; the editor's schema drops the rest of the
// formatting anyway. Only tags are touched, never text.
const STYLE_BLOCK = /<style\b[^>]*>[\s\S]*?<\/style\s*>/gi;
const STYLE_ATTRIBUTE = /\sstyle\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi;

function stripPresentation(html) {
  return html.replace(STYLE_BLOCK, "").replace(/<[^>]*>/g, (tag) => tag.replace(STYLE_ATTRIBUTE, ""));
}
