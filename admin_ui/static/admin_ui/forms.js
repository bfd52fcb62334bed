/* EmDash admin: no lost work.
   - Forms marked data-unsaved-guard warn before the page is left with unsaved changes (beforeunload).
   - The entry form (data-autosave) saves the draft a few seconds after the last change, through the same
     view as the Save button (header X-EmDash-Autosave: 1, JSON answer), so _rev conflict protection applies;
     a status line says "Unsaved changes", "Saving…", "Saved at 14:05" or why it was not saved.
   - Publishing (or any other action on the page) first saves pending changes, so nothing typed is left out. */
(function () {
  "use strict";
  const guarded = new Set();

  function markDirty(form) {
    form.dataset.dirty = "1";
  }
  document.querySelectorAll("form[data-unsaved-guard]").forEach((form) => {
    const dirty = (event) => {
      if (event.target && event.target.closest("[data-no-guard]")) return;
      markDirty(form);
    };
    form.addEventListener("input", dirty);
    form.addEventListener("change", dirty);
    form.addEventListener("submit", () => { form.dataset.submitting = "1"; });
    guarded.add(form);
  });
  window.addEventListener("beforeunload", (event) => {
    const unsaved = Array.from(guarded).some((f) => f.dataset.dirty === "1" && f.dataset.submitting !== "1");
    if (!unsaved) return undefined;
    event.preventDefault();
    event.returnValue = ""; // older browsers need a value to show the prompt
    return "";
  });

  const form = document.querySelector("form[data-autosave]");
  if (!form) return;
  const status = document.querySelector("[data-save-status]");
  const delay = Number(form.dataset.autosave) || 3000;
  let timer = null;
  let saving = null; // the running save (a promise)
  let changedWhileSaving = false;
  let stopped = false; // after a conflict: only an explicit Save (or reload) goes on

  const say = (text, kind) => {
    if (!status) return;
    status.textContent = text;
    status.dataset.state = kind;
  };
  const clock = (iso) => {
    const when = iso ? new Date(iso) : new Date();
    return when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  };
  const csrf = () => (form.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "";

  async function save() {
    if (saving) { changedWhileSaving = true; return saving; }
    clearTimeout(timer);
    if (stopped || form.dataset.stale === "1") {
      say("Not saved: a newer version exists. Reload it, or tick “Overwrite” and save.", "error");
      return false;
    }
    changedWhileSaving = false;
    say("Saving…", "saving");
    form.dataset.saving = "1";
    saving = (async () => {
      try {
        const response = await fetch(form.action || window.location.href, {
          method: "POST", body: new FormData(form), credentials: "same-origin",
          headers: { "X-EmDash-Autosave": "1", "X-CSRFToken": csrf(), Accept: "application/json" },
        });
        const answer = await response.json();
        if (answer.ok) {
          form.querySelector("[data-rev]").value = answer.rev;
          if (!changedWhileSaving) delete form.dataset.dirty;
          say(changedWhileSaving ? "Unsaved changes" : `Saved at ${clock(answer.updatedAt)}`, changedWhileSaving ? "dirty" : "saved");
          return true;
        }
        if (answer.code === "CONFLICT") {
          stopped = true;
          form.dataset.stale = "1";
          const warning = document.getElementById("stale-warning");
          if (warning) warning.hidden = false;
        }
        say(`Not saved: ${answer.message}`, "error");
        return false;
      } catch (error) {
        say("Not saved: the server could not be reached. Retrying…", "error");
        timer = setTimeout(save, delay * 3);
        return false;
      } finally {
        saving = null;
        delete form.dataset.saving;
        form.dispatchEvent(new Event("autosaved"));
        if (changedWhileSaving && !stopped) schedule();
      }
    })();
    return saving;
  }
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(save, delay);
  }
  const changed = () => {
    if (form.dataset.submitting === "1") return;
    if (saving) changedWhileSaving = true;
    say("Unsaved changes", "dirty");
    schedule();
  };
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  form.addEventListener("submit", () => clearTimeout(timer));

  /* Publish, schedule, … are other forms: save what was typed first, then go on. */
  document.querySelectorAll("form").forEach((other) => {
    if (other === form || other.dataset.confirm) return; // destructive actions ask first; beforeunload covers them
    other.addEventListener("submit", async (event) => {
      if (form.dataset.dirty !== "1" || event.defaultPrevented) return;
      event.preventDefault();
      if (await save()) { delete form.dataset.dirty; other.submit(); }
    });
  });
})();
