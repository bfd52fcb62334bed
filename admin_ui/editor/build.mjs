// Builds admin_ui/static/admin_ui/editor.js from src/ (run by `make editor`; the output is committed).
import { build } from "esbuild";

await build({
  entryPoints: ["src/main.js"],
  bundle: true,
  format: "iife",
  target: ["es2020"],
  minify: true,
  legalComments: "eof",
  sourcemap: false,
  outfile: process.env.OUTFILE || "../static/admin_ui/editor.js",
  logLevel: "info",
});
