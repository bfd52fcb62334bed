/* Portable Text <-> the editor's document (ProseMirror JSON as Tiptap writes it).
   Pure functions, no DOM: tested with `node --test` (admin_ui/editor/test/) as well as in the browser.

   Portable Text is flat (one block per paragraph; lists are blocks with listItem + level; quotes are a block
   style), the editor's document is a tree (lists and quotes wrap paragraphs), so each direction walks the
   other's shape. Block keys live on the editor's nodes (attribute ptKey) so they survive a round trip. */

const DECORATORS = { bold: "strong", italic: "em", code: "code", underline: "underline", strike: "strike-through" };
const MARKS = Object.fromEntries(Object.entries(DECORATORS).map(([mark, decorator]) => [decorator, mark]));
const LIST_NODES = { bullet: "bulletList", number: "orderedList" };
const LIST_KINDS = { bulletList: "bullet", orderedList: "number" };
const SAFE_SCHEMES = ["http:", "https:", "mailto:", "tel:"];

/** The link target if it is http(s), mailto:, tel:, site-relative or an anchor; otherwise null. */
export function safeHref(href) {
  if (typeof href !== "string") return null;
  const value = href.trim();
  if (!value || /[\u0000-\u001f\s]/.test(value)) return null;
  if (value.startsWith("#") || (value.startsWith("/") && !value.startsWith("//"))) return value;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value);
  if (!scheme || !SAFE_SCHEMES.includes(scheme[1].toLowerCase() + ":")) return null;
  return value;
}

export function newKey() {
  const bytes = new Uint8Array(6);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/* ---------- Portable Text -> editor ---------- */

function inlineContent(block) {
  const defs = {};
  for (const def of Array.isArray(block.markDefs) ? block.markDefs : []) {
    if (def && typeof def._key === "string") defs[def._key] = def;
  }
  const out = [];
  for (const span of Array.isArray(block.children) ? block.children : []) {
    if (!span || typeof span.text !== "string") continue;
    const marks = [];
    for (const mark of Array.isArray(span.marks) ? span.marks : []) {
      if (MARKS[mark]) marks.push({ type: MARKS[mark] });
      else if (defs[mark] && defs[mark]._type === "link" && safeHref(defs[mark].href)) {
        marks.push({ type: "link", attrs: { href: safeHref(defs[mark].href), ptKey: mark } });
      } else if (defs[mark] && defs[mark]._type !== "link") {
        marks.push({ type: "ptAnnotation", attrs: { def: defs[mark] } }); // e.g. an internal link: kept as is
      }
    }
    span.text.split("\n").forEach((part, index) => {
      if (index > 0) out.push({ type: "hardBreak" });
      if (part) out.push(marks.length ? { type: "text", text: part, marks } : { type: "text", text: part });
    });
  }
  return out;
}

function textblock(block) {
  const content = inlineContent(block);
  const style = typeof block.style === "string" ? block.style : "normal";
  const level = /^h([1-6])$/.exec(style);
  const node = level
    ? { type: "heading", attrs: { level: Number(level[1]), ptKey: block._key || null } }
    : { type: "paragraph", attrs: { ptKey: block._key || null } };
  if (content.length) node.content = content;
  return node;
}

const isListBlock = (b) => b && b._type === "block" && LIST_NODES[b.listItem];
const levelOf = (b) => (Number.isInteger(b.level) && b.level > 0 ? b.level : 1);

/* Consecutive list blocks from index i at `level` and deeper -> one list node; returns [node, next index]. */
function listFrom(blocks, i, level) {
  const kind = blocks[i].listItem;
  const list = { type: LIST_NODES[kind], content: [] };
  while (i < blocks.length && isListBlock(blocks[i]) && levelOf(blocks[i]) >= level) {
    const block = blocks[i];
    if (levelOf(block) === level) {
      if (block.listItem !== kind) break;
      list.content.push({ type: "listItem", content: [textblock(block)] });
      i += 1;
    } else {
      if (!list.content.length) list.content.push({ type: "listItem", content: [{ type: "paragraph" }] });
      const [sub, next] = listFrom(blocks, i, level + 1);
      list.content[list.content.length - 1].content.push(sub);
      i = next;
    }
  }
  return [list, i];
}

function imageNode(block, mediaUrls) {
  const asset = block.asset && typeof block.asset === "object" ? block.asset : {};
  const mediaId = asset.id || asset._ref || asset.mediaId || null;
  const { _type, _key, asset: _asset, alt, caption, ...extra } = block;
  return {
    type: "image",
    attrs: {
      src: (mediaId && mediaUrls[mediaId]) || "",
      mediaId,
      alt: typeof alt === "string" ? alt : null,
      caption: typeof caption === "string" ? caption : null,
      ptKey: _key || null,
      ptExtra: Object.keys(extra).length ? extra : null,
    },
  };
}

/** Portable Text blocks -> the editor's document. ``mediaUrls`` maps media ids to preview URLs. */
export function toEditor(blocks, mediaUrls = {}) {
  const content = [];
  const list = Array.isArray(blocks) ? blocks : [];
  let i = 0;
  while (i < list.length) {
    const block = list[i];
    if (!block || typeof block !== "object") { i += 1; continue; }
    if (isListBlock(block)) {
      const [node, next] = listFrom(list, i, levelOf(block));
      content.push(node);
      i = next;
      continue;
    }
    if (block._type === "block" && block.style === "blockquote") {
      const quote = { type: "blockquote", content: [] };
      while (i < list.length && list[i] && list[i]._type === "block" && list[i].style === "blockquote" && !list[i].listItem) {
        quote.content.push(textblock({ ...list[i], style: "normal" }));
        i += 1;
      }
      content.push(quote);
      continue;
    }
    if (block._type === "block") content.push(textblock(block));
    else if (block._type === "image") content.push(imageNode(block, mediaUrls));
    else if (block._type === "code" && typeof block.code === "string") {
      const node = { type: "codeBlock", attrs: { language: block.language || null, ptKey: block._key || null } };
      if (block.code) node.content = [{ type: "text", text: block.code }];
      content.push(node);
    } else content.push({ type: "ptObject", attrs: { data: block } });
    i += 1;
  }
  if (!content.length) content.push({ type: "paragraph" });
  return { type: "doc", content };
}

/* ---------- editor -> Portable Text ---------- */

const sameMarks = (a, b) => a.length === b.length && a.every((m, i) => m === b[i]);

function spansOf(node, blockKey) {
  const markDefs = [];
  const linkKeys = new Map(); // "ptKey|href" -> markDef key
  const pieces = [];
  for (const child of node.content || []) {
    if (child.type === "hardBreak") {
      const last = pieces[pieces.length - 1];
      pieces.push({ text: "\n", marks: last ? last.marks : [] });
      continue;
    }
    if (child.type !== "text") continue;
    const marks = [];
    for (const mark of child.marks || []) {
      if (DECORATORS[mark.type]) marks.push(DECORATORS[mark.type]);
      else if (mark.type === "link") {
        const href = safeHref(mark.attrs && mark.attrs.href);
        if (!href) continue; // unsafe or empty link: keep the text, drop the link
        const id = `${(mark.attrs && mark.attrs.ptKey) || ""}|${href}`;
        if (!linkKeys.has(id)) {
          let key = (mark.attrs && mark.attrs.ptKey) || `link${markDefs.length}`;
          if (markDefs.some((d) => d._key === key)) key = `link${markDefs.length}-${newKey()}`;
          linkKeys.set(id, key);
          markDefs.push({ _type: "link", _key: key, href });
        }
        marks.push(linkKeys.get(id));
      } else if (mark.type === "ptAnnotation" && mark.attrs && mark.attrs.def && mark.attrs.def._key) {
        const def = mark.attrs.def;
        if (!markDefs.some((d) => d._key === def._key)) markDefs.push(def);
        marks.push(def._key);
      }
    }
    pieces.push({ text: child.text, marks });
  }
  const children = [];
  for (const piece of pieces) {
    const last = children[children.length - 1];
    if (last && sameMarks(last.marks, piece.marks)) last.text += piece.text;
    else children.push({ _type: "span", _key: `${blockKey}s${children.length}`, text: piece.text, marks: piece.marks });
  }
  if (!children.length) children.push({ _type: "span", _key: `${blockKey}s0`, text: "", marks: [] });
  return { children, markDefs };
}

function blockOf(node, keys, extra) {
  const key = keys.take(node.attrs && node.attrs.ptKey);
  const style = node.type === "heading" ? `h${node.attrs.level}` : "normal";
  const { children, markDefs } = spansOf(node, key);
  return { _type: "block", _key: key, style, ...extra, markDefs, children };
}

function emit(node, out, keys, context) {
  const attrs = node.attrs || {};
  switch (node.type) {
    case "paragraph":
    case "heading": {
      const extra = context.list ? { listItem: context.list, level: context.level } : {};
      const block = blockOf(node, keys, extra);
      if (context.quote && !context.list) block.style = "blockquote";
      out.push(block);
      return;
    }
    case "blockquote":
      (node.content || []).forEach((child) => emit(child, out, keys, { ...context, quote: true }));
      return;
    case "bulletList":
    case "orderedList":
      for (const item of node.content || []) {
        const level = (context.level || 0) + 1;
        (item.content || []).forEach((child) => emit(child, out, keys, { ...context, list: LIST_KINDS[node.type], level }));
      }
      return;
    case "codeBlock": {
      const code = (node.content || []).map((t) => t.text || "").join("");
      const block = { _type: "code", _key: keys.take(attrs.ptKey), code };
      if (attrs.language) block.language = attrs.language;
      out.push(block);
      return;
    }
    case "image": {
      if (!attrs.mediaId) return;
      const block = { ...(attrs.ptExtra || {}), _type: "image", _key: keys.take(attrs.ptKey), asset: { id: attrs.mediaId } };
      if (attrs.alt) block.alt = attrs.alt;
      if (attrs.caption) block.caption = attrs.caption;
      out.push(block);
      return;
    }
    case "ptObject":
      if (attrs.data && typeof attrs.data === "object") out.push({ ...attrs.data, _key: keys.take(attrs.data._key) });
      return;
    default:
      (node.content || []).forEach((child) => emit(child, out, keys, context));
  }
}

/** The editor's document -> Portable Text blocks (trailing empty paragraphs are dropped). */
export function fromEditor(doc) {
  const used = new Set();
  const keys = {
    take(key) {
      let value = typeof key === "string" && key && !used.has(key) ? key : newKey();
      while (used.has(value)) value = newKey();
      used.add(value);
      return value;
    },
  };
  const out = [];
  (doc && doc.content ? doc.content : []).forEach((node) => emit(node, out, keys, {}));
  const empty = (b) => b._type === "block" && !b.listItem && b.style === "normal" && b.children.every((s) => !s.text);
  // The editor keeps an empty paragraph after a trailing image or code block so one can type there.
  while (out.length && empty(out[out.length - 1])) out.pop();
  return out;
}
