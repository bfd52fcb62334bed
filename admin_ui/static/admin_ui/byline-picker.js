// The bylines picker on the edit page: rows of (byline, role) posted in order, the first the primary credit.
// Without this script an editor reorders by choosing again; with it each filled row gets ↑ ↓ (which swap the
// row's byline and role with its neighbour's) and ✕ (which empties the row and moves it below the credits).
// On a site with more bylines than one list holds, the search box asks the server as the editor types and puts
// the matches in every row's list (each row keeps its own choice); without the script "Find" posts the form back.
(() => {
  "use strict";
  const init = (root) => {
    const rows = () => [...root.querySelectorAll(".byline-row")];
    const status = root.querySelector("[data-byline-status]");
    const parts = (row) => [row.querySelector("select"), row.querySelector("input")];
    const name = (row) => {
      const select = row.querySelector("select");
      return select.value ? select.selectedOptions[0].dataset.name : "";
    };
    const changed = (row) => row.querySelector("select").dispatchEvent(new Event("input", { bubbles: true }));
    const refresh = () => {
      const all = rows();
      all.forEach((row, i) => {
        const who = name(row);
        for (const b of row.querySelectorAll("[data-move]")) {
          const up = b.dataset.move === "up";
          b.disabled = !who || (up ? i === 0 : !all.slice(i + 1).some(name));
          b.setAttribute("aria-label", who ? `Move ${who} ${b.dataset.move}` : `Move byline ${i + 1} ${b.dataset.move}`);
        }
        const remove = row.querySelector("[data-remove]");
        remove.disabled = !who;
        remove.setAttribute("aria-label", who ? `Remove ${who}` : `Remove byline ${i + 1}`);
      });
    };
    const swap = (a, b) => {
      const [sa, ia] = parts(a);
      const [sb, ib] = parts(b);
      [sa.value, sb.value] = [sb.value, sa.value];
      [ia.value, ib.value] = [ib.value, ia.value];
    };
    const tool = (text, data, value) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "button small ghost";
      b.textContent = text;
      b.dataset[data] = value;
      return b;
    };
    const equip = (row) => {
      const tools = document.createElement("span");
      tools.className = "tools";
      tools.append(tool("↑", "move", "up"), tool("↓", "move", "down"), tool("✕", "remove", ""));
      row.append(tools);
    };
    rows().forEach(equip);
    // The server sends two spare rows; more come from here, numbered on (ids and labels) like the others.
    const more = tool("Add another byline", "more", "");
    more.classList.remove("ghost");
    rows().at(-1).after(more);
    more.addEventListener("click", () => {
      const last = rows().at(-1);
      const row = last.cloneNode(true);
      const n = rows().length + 1;
      row.querySelector(".tools").remove();
      for (const [control, label] of [["select", "Byline"], ["input", "Role"]]) {
        const field = row.querySelector(control);
        const text = row.querySelector(`label[for="${field.id}"]`);
        field.id = `id_credit_${control === "select" ? "byline" : "role"}_${n}`;
        field.value = "";
        text.htmlFor = field.id;
        text.textContent = `${label} ${n}`;
      }
      equip(row);
      last.after(row);
      refresh();
      row.querySelector("select").focus();
    });
    const search = root.querySelector("[data-byline-search]");
    if (search) {
      const find = root.querySelector("[data-byline-find]");
      find.type = "button"; // not the form's default button: Enter in another field still saves
      const label = (b) => {
        const notes = [b.isGuest ? "guest" : "", b.locale || ""].filter(Boolean).join(", ");
        return notes ? `${b.displayName} (${notes})` : b.displayName;
      };
      const option = (b) => {
        const o = new Option(label(b), b.id);
        o.dataset.name = b.displayName;
        return o;
      };
      let asked = 0;
      let timer = 0;
      const lookUp = async () => {
        const q = search.value.trim();
        const mine = (asked += 1);
        let answer;
        try {
          const response = await fetch(`${search.dataset.bylineSearch}?q=${encodeURIComponent(q)}`, {
            credentials: "same-origin",
            headers: { Accept: "application/json" },
          });
          if (!response.ok) throw new Error(String(response.status));
          answer = await response.json();
        } catch {
          status.textContent = "The bylines could not be searched.";
          return;
        }
        if (mine !== asked) return; // a later search is on its way
        for (const select of root.querySelectorAll(".byline-row select")) {
          const kept = select.value ? select.selectedOptions[0] : null;
          const found = answer.results.filter((b) => b.id !== select.value).map(option);
          select.replaceChildren(new Option("—", ""), ...(kept ? [kept] : []), ...found);
          select.value = kept ? kept.value : "";
        }
        const n = answer.results.length;
        const shows = root.querySelector("[data-byline-shows]");
        if (shows) shows.textContent = q ? "(the list shows the matches)" : `(the list shows the first ${n})`;
        status.textContent = q
          ? n
            ? `${n} byline${n === 1 ? "" : "s"} match “${q}”.`
            : `No byline matches “${q}”.`
          : `The first ${n} bylines.`;
      };
      search.addEventListener("input", () => {
        clearTimeout(timer);
        timer = setTimeout(lookUp, 250);
      });
      search.addEventListener("keydown", (e) => {
        if (e.key !== "Enter") return;
        e.preventDefault(); // a search, not a save
        clearTimeout(timer);
        lookUp();
      });
      find.addEventListener("click", () => {
        clearTimeout(timer);
        lookUp();
      });
    }
    root.addEventListener("change", refresh);
    root.addEventListener("click", (e) => {
      const b = e.target.closest("button");
      const row = b?.closest(".byline-row");
      if (!row) return;
      const all = rows();
      const at = all.indexOf(row);
      const who = name(row);
      if (b.matches("[data-remove]")) {
        const [select, input] = parts(row);
        select.value = "";
        input.value = "";
        for (let i = at; i < all.length - 1; i += 1) swap(all[i], all[i + 1]);
        status.textContent = `${who} removed.`;
      } else {
        const to = b.dataset.move === "up" ? at - 1 : at + 1;
        swap(row, all[to]);
        status.textContent = `${who}: position ${to + 1}${to === 0 ? ", the primary credit" : ""}.`;
        const again = all[to].querySelector(`[data-move="${b.dataset.move}"]`);
        refresh();
        const back = all[to].querySelector(`[data-move="${b.dataset.move === "up" ? "down" : "up"}"]`);
        (again.disabled ? back : again).focus(); // at the end: the way back
        changed(row);
        return;
      }
      refresh();
      changed(row);
      row.querySelector("select").focus();
    });
    refresh();
  };
  const start = () => document.querySelectorAll("[data-byline-picker]").forEach(init);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
