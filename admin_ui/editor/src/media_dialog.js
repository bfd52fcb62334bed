/* "Insert an image": pick one from the media library (REST media list, session-authenticated) or upload one
   (the admin's upload endpoint, the same one the media library's drag and drop uses), then insert it. */

function csrfToken(root) {
  const form = root.closest("form");
  const input = (form || document).querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

const TEMPLATE = `
  <div class="pt-dialog-form">
    <h2 class="pt-dialog-title">Insert an image</h2>
    <div class="pt-upload" data-pt-upload-area>
      <label for="{id}-file">Upload a new image</label>
      <input id="{id}-file" type="file" accept="image/*" data-pt-upload>
      <p class="muted small" role="status" aria-live="polite" data-pt-upload-status></p>
    </div>
    <fieldset class="plain"><legend>Or choose from the media library</legend>
      <p class="muted small" role="status" data-pt-media-status></p>
      <div class="pt-media-grid" data-pt-media-grid></div>
    </fieldset>
    <div class="field"><label for="{id}-alt">Alt text <span class="muted small">(what the image shows, for people who cannot see it)</span></label>
      <input id="{id}-alt" type="text" maxlength="500" data-pt-alt></div>
    <div class="form-actions">
      <button type="button" class="button primary" data-pt-insert disabled>Insert image</button>
      <button type="button" class="button ghost" data-pt-cancel>Cancel</button>
    </div>
  </div>`;

export function mediaDialog(editor, config) {
  const dialog = document.createElement("dialog");
  dialog.className = "pt-dialog";
  const id = `pt-media-${Math.random().toString(36).slice(2, 8)}`;
  dialog.setAttribute("aria-labelledby", `${id}-title`);
  dialog.innerHTML = TEMPLATE.replaceAll("{id}", id);
  dialog.querySelector(".pt-dialog-title").id = `${id}-title`;
  const $ = (selector) => dialog.querySelector(selector);
  const grid = $("[data-pt-media-grid]");
  const alt = $("[data-pt-alt]");
  const insert = $("[data-pt-insert]");
  const status = $("[data-pt-upload-status]");
  const listStatus = $("[data-pt-media-status]");
  let loading = null;
  let chosen = null;
  if (config.canUpload !== "1") $("[data-pt-upload-area]").hidden = true;

  const choose = (item, button) => {
    chosen = item;
    grid.querySelectorAll("button").forEach((b) => b.setAttribute("aria-pressed", String(b === button)));
    if (!alt.value) alt.value = item.alt || "";
    insert.disabled = false;
  };
  const tile = (item) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "pt-media-tile";
    button.setAttribute("aria-pressed", "false");
    button.dataset.mediaId = item.id;
    const img = document.createElement("img");
    img.src = item.url;
    img.alt = "";
    const name = document.createElement("span");
    name.textContent = item.filename;
    button.append(img, name);
    button.addEventListener("click", () => choose(item, button));
    button.addEventListener("dblclick", () => { choose(item, button); insert.click(); });
    return button;
  };
  const load = async () => {
    grid.replaceChildren();
    listStatus.textContent = "Loading…";
    try {
      const response = await fetch(config.mediaListUrl, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(String(response.status));
      const page = await response.json();
      const items = (page.items || []).filter((item) => (item.mimeType || "").startsWith("image/"));
      const shown = new Set(Array.from(grid.children, (b) => b.dataset.mediaId)); // uploaded meanwhile
      items.filter((item) => !shown.has(item.id)).forEach((item) => grid.append(tile(item)));
      listStatus.textContent = grid.children.length ? "" : "No images yet: upload one above.";
    } catch (error) {
      listStatus.textContent = "The media library could not be loaded.";
    }
  };
  const upload = async (file) => {
    status.textContent = `Uploading ${file.name}…`;
    const body = new FormData();
    body.append("file", file);
    if (alt.value) body.append("alt", alt.value);
    const response = await fetch(config.uploadUrl, {
      method: "POST", body, credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken(dialog.parentElement || document.body), Accept: "application/json" },
    });
    const answer = await response.json().catch(() => ({}));
    const result = (answer.results || [])[0];
    if (!response.ok || !result || !result.ok) {
      status.textContent = `The upload failed${result && result.code ? ` (${result.code})` : ""}.`;
      return;
    }
    status.textContent = `Uploaded ${file.name}.`;
    if (loading) await loading;
    listStatus.textContent = "";
    grid.querySelectorAll(`[data-media-id="${CSS.escape(result.item.id)}"]`).forEach((b) => b.remove());
    const button = tile(result.item);
    grid.prepend(button);
    choose(result.item, button);
  };
  $("[data-pt-upload]").addEventListener("change", (event) => {
    const file = event.target.files[0];
    if (file) upload(file);
  });
  insert.addEventListener("click", () => {
    if (!chosen) return;
    editor.chain().focus().setImage({ src: chosen.url, alt: alt.value.trim() || null, mediaId: chosen.id }).run();
    dialog.close();
  });
  $("[data-pt-cancel]").addEventListener("click", () => dialog.close());
  // The dialog sits inside the entry form: Enter must not submit it.
  alt.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); insert.click(); }
  });
  dialog.addEventListener("close", () => editor.commands.focus());
  return {
    element: dialog,
    open() {
      chosen = null;
      alt.value = "";
      insert.disabled = true;
      status.textContent = "";
      $("[data-pt-upload]").value = "";
      dialog.showModal();
      loading = load();
    },
  };
}
