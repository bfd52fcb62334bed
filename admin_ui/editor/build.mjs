// Builds admin_ui/static/admin_ui/editor.js from src/ (run by `make editor`; the output is committed).
import { build } from "esbuild";

await build({
  entryPoints: ["src/main.js"],
  bundle: true,
  format: "iife",
  target: ["es2020"],
  minify: true,
  legalComments: "eof",
  banner: {
    js: "/* EmDash admin rich-text editor. Bundles Tiptap, ProseMirror and their dependencies (MIT licence); sources and exact versions: admin_ui/editor/ (package-lock.json). */",
  },
  sourcemap: false,
  outfile: process.env.OUTFILE || "../static/admin_ui/editor.js",
  logLevel: "info",
});
