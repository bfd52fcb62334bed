/* The Tiptap extensions of the Portable Text editor: the schema is limited to what Portable Text stores, so
   ProseMirror's paste parser drops everything else (Word's spans, styles, classes, fonts, tables' layout). */
import { Extension, Mark, Node, mergeAttributes } from "@tiptap/core";
import Image from "@tiptap/extension-image";
import { Link } from "@tiptap/extension-link";
import { Plugin } from "@tiptap/pm/state";
import StarterKit from "@tiptap/starter-kit";

import { newKey, safeHref } from "./pt.js";

const KEYED = ["paragraph", "heading", "codeBlock", "image"];
// Not rendered to HTML and not read from pasted HTML: a pasted paragraph is a new block with a new key.
const hidden = (extra = {}) => ({ default: null, rendered: false, keepOnSplit: false, parseHTML: () => null, ...extra });

/* Every keyed block gets a stable, unique ptKey as soon as it exists (split, paste, duplicate keys after a copy). */
const BlockKeys = Extension.create({
  name: "ptBlockKeys",
  addGlobalAttributes() {
    return [{ types: KEYED, attributes: { ptKey: hidden() } }];
  },
  addProseMirrorPlugins() {
    return [
      new Plugin({
        appendTransaction: (transactions, _old, state) => {
          if (!transactions.some((tr) => tr.docChanged)) return null;
          const seen = new Set();
          let tr = null;
          state.doc.descendants((node, pos) => {
            if (!KEYED.includes(node.type.name)) return true;
            const key = node.attrs.ptKey;
            if (!key || seen.has(key)) {
              tr = tr || state.tr;
              const fresh = newKey();
              tr.setNodeMarkup(pos, undefined, { ...node.attrs, ptKey: fresh });
              seen.add(fresh);
            } else seen.add(key);
            return node.type.name !== "image" && node.type.name !== "codeBlock";
          });
          return tr;
        },
      }),
    ];
  },
});

const PtLink = Link.extend({
  inclusive: false, // typing right after a link is plain text again (autolink would make it extend the link)
  addAttributes() {
    return { ...this.parent?.(), ptKey: hidden() };
  },
}).configure({
  openOnClick: false,
  autolink: true,
  defaultProtocol: "https",
  protocols: ["mailto", "tel"],
  isAllowedUri: (url) => safeHref(url) !== null,
  HTMLAttributes: { rel: "noopener noreferrer nofollow", target: null },
});

/* Inline images are media items: only images the editor itself inserted (data-media-id) are read back. */
const MediaImage = Image.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      mediaId: { default: null, parseHTML: (el) => el.getAttribute("data-media-id"), renderHTML: (a) => ({ "data-media-id": a.mediaId }) },
      caption: hidden(),
      ptExtra: hidden(),
    };
  },
  parseHTML() {
    return [{ tag: "img[data-media-id]" }];
  },
}).configure({ inline: false, allowBase64: false, HTMLAttributes: { class: "pt-image" } });

/* Portable Text blocks the editor cannot edit (embeds, custom objects) are kept as they are, shown as a chip. */
const PtObject = Node.create({
  name: "ptObject",
  group: "block",
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes() {
    return { data: hidden() };
  },
  parseHTML() {
    return [];
  },
  renderHTML({ node, HTMLAttributes }) {
    const kind = (node.attrs.data && node.attrs.data._type) || "object";
    return ["div", mergeAttributes(HTMLAttributes, { class: "pt-object", contenteditable: "false" }), `Custom block “${kind}” (kept as is)`];
  },
});

/* Annotations other than links (internal references, footnotes, …) written through MCP or the API: the editor
   cannot edit them but keeps them on their text, underlined with a dotted line. */
const PtAnnotation = Mark.create({
  name: "ptAnnotation",
  excludes: "",
  inclusive: false,
  addAttributes() {
    return { def: hidden() };
  },
  parseHTML() {
    return [];
  },
  renderHTML({ mark }) {
    const kind = (mark.attrs.def && mark.attrs.def._type) || "annotation";
    return ["span", { class: "pt-annotation", title: `${kind} (kept as is)` }, 0];
  },
});

export function extensions({ onLinkShortcut }) {
  const LinkShortcut = Extension.create({
    name: "ptLinkShortcut",
    addKeyboardShortcuts() {
      return { "Mod-k": () => { onLinkShortcut(); return true; } };
    },
  });
  return [
    StarterKit.configure({
      heading: { levels: [1, 2, 3, 4, 5, 6] },
      horizontalRule: false,
      link: false,
    }),
    PtLink,
    MediaImage,
    PtObject,
    PtAnnotation,
    BlockKeys,
    LinkShortcut,
  ];
}
