/* The editor's toolbar (a WAI-ARIA toolbar: one tab stop, arrow keys move between controls) and link bar. */

const STYLES = [
  ["normal", "Paragraph"],
  ["h1", "Heading 1"],
  ["h2", "Heading 2"],
  ["h3", "Heading 3"],
  ["h4", "Heading 4"],
];

// [name, label, shortcut, command, isActive]
const BUTTONS = [
  ["bold", "Bold", "Ctrl+B", (c) => c.toggleBold(), (e) => e.isActive("bold")],
  ["italic", "Italic", "Ctrl+I", (c) => c.toggleItalic(), (e) => e.isActive("italic")],
  ["code", "Inline code", "Ctrl+E", (c) => c.toggleCode(), (e) => e.isActive("code")],
  ["link", "Link", "Ctrl+K", null, (e) => e.isActive("link")],
  ["bulletList", "Bulleted list", "Ctrl+Shift+8", (c) => c.toggleBulletList(), (e) => e.isActive("bulletList")],
  ["orderedList", "Numbered list", "Ctrl+Shift+7", (c) => c.toggleOrderedList(), (e) => e.isActive("orderedList")],
  ["blockquote", "Quote", "Ctrl+Shift+B", (c) => c.toggleBlockquote(), (e) => e.isActive("blockquote")],
  ["codeBlock", "Code block", "Ctrl+Alt+C", (c) => c.toggleCodeBlock(), (e) => e.isActive("codeBlock")],
  ["image", "Image", "", null, () => false],
  ["undo", "Undo", "Ctrl+Z", (c) => c.undo(), () => false],
  ["redo", "Redo", "Ctrl+Shift+Z", (c) => c.redo(), () => false],
];
const ICONS = {
  bold: "B", italic: "I", code: "</>", link: "Link", bulletList: "• List", orderedList: "1. List",
  blockquote: "“ Quote", codeBlock: "{ } Code", image: "Image", undo: "↶", redo: "↷",
};

function currentStyle(editor) {
  for (let level = 1; level <= 6; level += 1) if (editor.isActive("heading", { level })) return `h${Math.min(level, 4)}`;
  return "normal";
}

function setStyle(editor, value) {
  const chain = editor.chain().focus();
  if (value === "normal") chain.setParagraph().run();
  else chain.setHeading({ level: Number(value.slice(1)) }).run();
}

function rovingFocus(element) {
  element.addEventListener("keydown", (event) => {
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    const controls = Array.from(element.querySelectorAll("button, select"));
    const index = controls.indexOf(document.activeElement);
    if (index < 0) return;
    event.preventDefault();
    const next = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: controls.length - 1 }[event.key];
    const target = controls[(next + controls.length) % controls.length];
    controls.forEach((c) => { c.tabIndex = -1; });
    target.tabIndex = 0;
    target.focus();
  });
}

export function toolbar(editor, actions, label) {
  const element = document.createElement("div");
  element.className = "pt-toolbar";
  element.setAttribute("role", "toolbar");
  element.setAttribute("aria-label", `Formatting for ${label}`);
  const select = document.createElement("select");
  select.setAttribute("aria-label", "Text style");
  select.dataset.ptStyle = "";
  STYLES.forEach(([value, text]) => select.add(new Option(text, value)));
  select.addEventListener("change", () => setStyle(editor, select.value));
  element.append(select);
  const buttons = BUTTONS.map(([name, title, shortcut, command, active]) => {
    const button = document.createElement("button");
    button.type = "button";
    button.tabIndex = -1;
    button.dataset.ptAction = name;
    button.textContent = ICONS[name];
    button.title = shortcut ? `${title} (${shortcut})` : title;
    button.setAttribute("aria-label", title);
    if (!["image", "undo", "redo", "link"].includes(name)) button.setAttribute("aria-pressed", "false");
    // A mouse click must not take the focus (and the selection) away from the text.
    button.addEventListener("mousedown", (event) => event.preventDefault());
    button.addEventListener("click", () => {
      if (actions[name]) actions[name]();
      else command(editor.chain().focus()).run();
    });
    element.append(button);
    return [button, active];
  });
  const refresh = () => {
    select.value = currentStyle(editor);
    buttons.forEach(([button, active]) => {
      if (button.hasAttribute("aria-pressed")) button.setAttribute("aria-pressed", String(active(editor)));
    });
    element.hidden = !editor.isEditable;
  };
  editor.on("transaction", refresh);
  refresh();
  rovingFocus(element);
  return { element };
}

/* Ctrl/Cmd+K or the Link button: edit the link on the selection; the address is checked before it is applied. */
export function linkBar(editor, safeHref) {
  const element = document.createElement("div");
  element.className = "pt-linkbar";
  element.setAttribute("role", "group");
  element.setAttribute("aria-label", "Link");
  element.hidden = true;
  const id = `pt-link-${Math.random().toString(36).slice(2, 8)}`;
  element.innerHTML = `<label for="${id}">Link address</label> <input id="${id}" type="text" inputmode="url" placeholder="https://…" data-pt-link-input>
    <button type="button" class="button small primary" data-pt-link-apply>Apply</button>
    <button type="button" class="button small ghost" data-pt-link-remove>Remove link</button>
    <button type="button" class="button small ghost" data-pt-link-cancel>Cancel</button>
    <span class="error-text" role="alert" data-pt-link-error></span>`;
  const input = element.querySelector("input");
  const error = element.querySelector("[data-pt-link-error]");
  const close = () => { element.hidden = true; error.textContent = ""; editor.commands.focus(); };
  let range = null; // the selection when the bar opened: focus moves to the input, the selection must not
  const apply = () => {
    const href = safeHref(input.value);
    if (!href) {
      error.textContent = "Use an address starting with https://, http://, mailto:, tel:, / or #.";
      input.focus();
      return;
    }
    const chain = editor.chain().focus();
    if (range) chain.setTextSelection(range);
    if (range && range.from === range.to && !editor.isActive("link")) {
      chain.insertContent({ type: "text", text: href, marks: [{ type: "link", attrs: { href } }] }).run();
    } else chain.extendMarkRange("link").setLink({ href }).run();
    close();
  };
  element.querySelector("[data-pt-link-apply]").addEventListener("click", apply);
  element.querySelector("[data-pt-link-remove]").addEventListener("click", () => {
    const chain = editor.chain().focus();
    if (range) chain.setTextSelection(range);
    chain.extendMarkRange("link").unsetLink().run();
    close();
  });
  element.querySelector("[data-pt-link-cancel]").addEventListener("click", close);
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); apply(); }
    if (event.key === "Escape") { event.preventDefault(); close(); }
  });
  return {
    element,
    open() {
      if (!editor.isEditable) return;
      // A selection made with the keyboard reaches the editor's state through "selectionchange", which can
      // still be pending when Ctrl+K arrives: read it from the page first.
      if (editor.view.domObserver && editor.view.domObserver.flush) editor.view.domObserver.flush();
      const { from, to } = editor.state.selection;
      range = { from, to };
      input.value = editor.getAttributes("link").href || "";
      error.textContent = "";
      element.hidden = false;
      input.focus();
      input.select();
    },
  };
}
