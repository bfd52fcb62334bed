// Portable Text <-> editor document: run with `node --test admin_ui/editor/test/` (tests/admin runs it too).
import assert from "node:assert/strict";
import { test } from "node:test";

import { fromEditor, safeHref, toEditor } from "../src/pt.js";

const span = (key, text, marks = []) => ({ _type: "span", _key: key, text, marks });
const block = (key, style, children, extra = {}) => ({ _type: "block", _key: key, style, ...extra, markDefs: extra.markDefs || [], children });

const SAMPLE = [
  block("a", "h2", [span("as0", "Title")]),
  block("b", "normal", [span("bs0", "Plain "), span("bs1", "bold", ["strong"]), span("bs2", " and "), span("bs3", "a link", ["l1", "em"])], {
    markDefs: [{ _type: "link", _key: "l1", href: "https://example.com/x" }],
  }),
  block("c", "normal", [span("cs0", "one", [])], { listItem: "bullet", level: 1 }),
  block("d", "normal", [span("ds0", "nested", [])], { listItem: "bullet", level: 2 }),
  block("e", "normal", [span("es0", "two", [])], { listItem: "bullet", level: 1 }),
  block("f", "normal", [span("fs0", "first")], { listItem: "number", level: 1 }),
  block("g", "blockquote", [span("gs0", "Quoted\nline two")]),
  { _type: "code", _key: "h", code: "print(1)\n", language: "python" },
  { _type: "image", _key: "i", asset: { id: "M1" }, alt: "A cat", caption: "Cap", crop: { top: 1 } },
  { _type: "youtube", _key: "j", url: "https://youtu.be/x" },
  block("k", "h4", [span("ks0", "end", ["code", "underline", "strike-through"])]),
  block("m", "normal", [span("ms0", "see "), span("ms1", "the about page", ["r1", "strong"])], {
    markDefs: [{ _type: "internalLink", _key: "r1", reference: { collection: "pages", id: "P1" } }],
  }),
];

test("round trip keeps blocks, keys, styles, lists, marks, links, code, images and unknown blocks", () => {
  const doc = toEditor(SAMPLE, { M1: "/media/m1.png" });
  assert.deepEqual(fromEditor(doc), SAMPLE);
  assert.equal(doc.content.find((n) => n.type === "image").attrs.src, "/media/m1.png");
});

test("nested lists become nested list nodes", () => {
  const doc = toEditor(SAMPLE.slice(2, 5));
  assert.equal(doc.content.length, 1);
  const list = doc.content[0];
  assert.equal(list.type, "bulletList");
  assert.equal(list.content.length, 2);
  assert.equal(list.content[0].content[1].type, "bulletList");
});

test("unsafe links are dropped, their text kept", () => {
  const doc = { type: "doc", content: [{ type: "paragraph", content: [
    { type: "text", text: "x", marks: [{ type: "link", attrs: { href: "javascript:alert(1)" } }] },
  ] }] };
  const [only] = fromEditor(doc);
  assert.deepEqual(only.markDefs, []);
  assert.equal(only.children[0].text, "x");
  assert.deepEqual(only.children[0].marks, []);
  assert.equal(safeHref(" JavaScript:alert(1)"), null);
  assert.equal(safeHref("//evil.example"), null);
  assert.equal(safeHref("/about"), "/about");
  assert.equal(safeHref("mailto:a@b.c"), "mailto:a@b.c");
});

test("an empty document is an empty list; new blocks get unique keys", () => {
  assert.deepEqual(fromEditor(toEditor([])), []);
  const doc = { type: "doc", content: [
    { type: "paragraph", attrs: { ptKey: "same" }, content: [{ type: "text", text: "a" }] },
    { type: "paragraph", attrs: { ptKey: "same" }, content: [{ type: "text", text: "b" }] },
    { type: "paragraph", content: [{ type: "text", text: "c" }] },
  ] };
  const keys = fromEditor(doc).map((b) => b._key);
  assert.equal(new Set(keys).size, 3);
  assert.equal(keys[0], "same");
});

test("adjacent text with the same marks is one span; hard breaks are newlines", () => {
  const doc = { type: "doc", content: [{ type: "paragraph", attrs: { ptKey: "p" }, content: [
    { type: "text", text: "a", marks: [{ type: "bold" }] },
    { type: "hardBreak" },
    { type: "text", text: "b", marks: [{ type: "bold" }] },
  ] }] };
  assert.deepEqual(fromEditor(doc)[0].children, [span("ps0", "a\nb", ["strong"])]);
});
