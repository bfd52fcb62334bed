// Arguments for every EmDash tool, keyed by tool name, for the SDK client run (sdk-clients.mjs).
//
// Each builder gets a Fixtures object and returns the tool's arguments. Tools that change or delete something
// get an item of their own (made through other tools just before), so every call, direct or as a task, succeeds
// whatever ran before it. The tool set comes from tools/list: a listed tool without a builder here fails the run.
// Keep in step with tests/mcp_e2e/tool_args.py (the same table for the Python SDK client).

import { createServer } from "node:http";
import { crc32 } from "node:zlib";

// A 4x3 PNG; uniquePng adds a tEXt chunk so each upload has its own bytes (media_upload deduplicates by hash).
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAFElEQVR4nGPkqjjBAANMDEgAhQMAL5ABUDM+basAAAAASUVORK5CYII=",
  "base64",
);

function uniquePng(text) {
  const body = Buffer.concat([Buffer.from("tEXt"), Buffer.from(`Comment\0${text}`, "latin1")]);
  const chunk = Buffer.alloc(body.length + 8);
  chunk.writeUInt32BE(body.length - 4, 0);
  body.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(body), body.length + 4);
  const iend = PNG.length - 12; // the IEND chunk closes the file
  return Buffer.concat([PNG.subarray(0, iend), chunk, PNG.subarray(iend)]).toString("base64");
}

// A one-post WordPress export, served on 127.0.0.1 for import_wordpress (run.py lets the server fetch loopback
// URLs for this run only: EMDASH_FETCH_ALLOW_PRIVATE). Importing it again creates nothing new (SPEC 12).
const WXR = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"
  xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>SDK site</title><link>https://sdk.example.com</link><wp:wxr_version>1.2</wp:wxr_version>
<wp:base_site_url>https://sdk.example.com</wp:base_site_url><wp:base_blog_url>https://sdk.example.com</wp:base_blog_url>
<item><title>Imported by an SDK client</title><link>https://sdk.example.com/hello/</link>
<dc:creator><![CDATA[sdk]]></dc:creator><content:encoded><![CDATA[<p>Hello from <em>WordPress</em>.</p>]]></content:encoded>
<wp:post_id>1</wp:post_id><wp:post_date_gmt>2024-01-02 03:04:05</wp:post_date_gmt><wp:post_name>hello</wp:post_name>
<wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item>
</channel></rss>`;
let wxrUrl;

async function servedWxr() {
  if (!wxrUrl) {
    const server = createServer((_, res) => res.writeHead(200, { "Content-Type": "application/xml" }).end(WXR));
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    server.unref();
    wxrUrl = `http://127.0.0.1:${server.address().port}/export.xml`;
  }
  return wxrUrl;
}

function future(days = 3) {
  return new Date(Date.now() + days * 86400000).toISOString();
}

// Fixtures for one client session. `call(name, args)` is a direct tool call that must succeed (it is checked
// and validated like any other call) and returns the payload. `tag` keeps names unique across sessions.
export class Fixtures {
  constructor(call, tag, storageKeys) {
    this.call = call;
    this.tag = tag;
    this.storageKeys = storageKeys;
    this.count = 0;
  }

  uniq(prefix) {
    this.count += 1;
    return `${prefix}${this.tag}n${this.count}`;
  }

  // The session's collection, an item, a media item and a menu that read-only builders point at.
  async setup() {
    this.collection = this.uniq("sdk");
    await this.call("schema_create_collection", {
      slug: this.collection,
      label: `SDK ${this.tag}`,
      supports: ["drafts", "revisions", "scheduling", "search"],
    });
    await this.call("schema_create_field", {
      collection: this.collection,
      slug: "title",
      label: "Title",
      type: "string",
      required: true,
      searchable: true,
    });
    await this.call("schema_create_field", { collection: this.collection, slug: "body", label: "Body", type: "text" });
    this.itemId = await this.item("published");
    this.mediaId = await this.media();
    this.menu = await this.newMenu();
  }

  // An item of the session's collection in the given state; returns its id.
  async item(state = "draft") {
    const made = await this.call("content_create", {
      collection: this.collection,
      data: { title: `Searchable sdk item ${this.uniq("t")}`, body: "Written by an SDK client." },
    });
    const target = { collection: this.collection, id: made.item.id };
    if (state === "published" || state === "changed") await this.call("content_publish", target);
    if (state === "changed") await this.call("content_update", { ...target, data: { title: "Draft edit" } });
    if (state === "scheduled") await this.call("content_schedule", { ...target, scheduledAt: future() });
    if (state === "trashed") await this.call("content_delete", target);
    return made.item.id;
  }

  async target(state) {
    return { collection: this.collection, id: await this.item(state) };
  }

  async media() {
    const name = this.uniq("m");
    return (await this.call("media_upload", { filename: `${name}.png`, data: uniquePng(name), alt: "SDK" })).item.id;
  }

  storageKey() {
    const key = this.storageKeys.shift();
    if (!key) throw new Error("media_create: no placed file left (EMDASH_SDK_STORAGE_KEYS holds too few keys)");
    return key;
  }

  async term() {
    const slug = this.uniq("term");
    await this.call("taxonomy_create_term", { taxonomy: "tag", slug, label: `Term ${slug}` });
    return slug;
  }

  async newTaxonomy() {
    const name = this.uniq("tax");
    await this.call("taxonomy_create", { name, label: `Taxonomy ${name}` });
    return name;
  }

  // media_upload_url, then the PUT of the bytes to its uploadUrl: media_confirm's arguments.
  async signedUpload() {
    const name = this.uniq("s");
    const bytes = Buffer.from(uniquePng(name), "base64");
    const ticket = await this.call("media_upload_url", { filename: `${name}.png`, mimeType: "image/png", size: bytes.length });
    const put = await fetch(ticket.uploadUrl, { method: "PUT", headers: { "Content-Type": "image/png" }, body: bytes });
    if (!put.ok) throw new Error(`PUT to the signed upload URL answered ${put.status}`);
    return { storageKey: ticket.storageKey, filename: `${name}.png`, mimeType: "image/png" };
  }

  async newMenu() {
    const name = this.uniq("menu");
    await this.call("menu_create", { name, label: `Menu ${name}` });
    return name;
  }

  // A change set holding one new draft, in `state` (open, submitted, approved, published). The session's user
  // approves its own set, so the four-eyes rule is turned off first (changesetsSelfApprove).
  async changesetEntry(state = "open") {
    const made = await this.call("changeset_create", { title: `Set ${this.uniq("cs")}` });
    const id = made.changeset.id;
    const item = await this.item("draft");
    await this.call("changeset_add", { id, collection: this.collection, item });
    if (["submitted", "approved", "published"].includes(state)) await this.call("changeset_submit", { id });
    if (["approved", "published"].includes(state)) {
      await this.call("settings_update", { changesetsSelfApprove: true });
      await this.call("changeset_review", { id, decision: "approve" });
    }
    if (state === "published") await this.call("changeset_publish", { id });
    return { id, collection: this.collection, item };
  }

  async changeset(state = "open") {
    return (await this.changesetEntry(state)).id;
  }

  async byline() {
    const slug = `b${this.uniq("b").toLowerCase().replaceAll("_", "-")}`;
    return (await this.call("byline_create", { slug, displayName: `Byline ${slug}` })).id;
  }

  async redirect() {
    const made = await this.call("redirect_create", { source: `/old/${this.uniq("r")}/`, target: "/" });
    return made.id;
  }

  async field() {
    const slug = this.uniq("f");
    await this.call("schema_create_field", { collection: this.collection, slug, label: "Scratch", type: "string" });
    return slug;
  }

  async newCollection() {
    const slug = this.uniq("c");
    await this.call("schema_create_collection", { slug, label: `Scratch ${slug}` });
    return slug;
  }

  async revision() {
    const { collection, id } = await this.target("draft");
    await this.call("content_update", { collection, id, data: { title: "Second version" } });
    const history = await this.call("revision_list", { collection, id });
    return history.items[history.items.length - 1].id;
  }
}

export const BUILDERS = {
  // schema
  schema_list_collections: async () => ({}),
  schema_get_collection: async (fx) => ({ collection: fx.collection }),
  schema_create_collection: async (fx) => ({ slug: fx.uniq("c"), label: "Made by an SDK client" }),
  schema_update_collection: async (fx) => ({ collection: fx.collection, description: `Updated ${fx.uniq("d")}` }),
  schema_delete_collection: async (fx) => ({ collection: await fx.newCollection(), force: true }),
  schema_create_field: async (fx) => ({ collection: fx.collection, slug: fx.uniq("f"), label: "New", type: "integer" }),
  schema_update_field: async (fx) => ({ collection: fx.collection, fieldSlug: "body", label: `Body ${fx.uniq("l")}` }),
  schema_delete_field: async (fx) => ({ collection: fx.collection, fieldSlug: await fx.field() }),
  // content
  content_list: async (fx) => ({ collection: fx.collection, limit: 3 }),
  content_get: async (fx) => ({ collection: fx.collection, id: fx.itemId }),
  content_compare: async (fx) => ({ collection: fx.collection, id: fx.itemId }),
  content_list_trashed: async (fx) => ({ collection: fx.collection }),
  content_translations: async (fx) => ({ collection: fx.collection, id: fx.itemId }),
  content_create: async (fx) => ({ collection: fx.collection, data: { title: `Created ${fx.uniq("t")}` } }),
  content_update: async (fx) => ({ ...(await fx.target("draft")), data: { title: "Updated by an SDK client" } }),
  content_delete: async (fx) => fx.target("draft"),
  content_permanent_delete: async (fx) => fx.target("trashed"),
  content_publish: async (fx) => fx.target("draft"),
  content_unpublish: async (fx) => fx.target("published"),
  content_schedule: async (fx) => ({ ...(await fx.target("draft")), scheduledAt: future() }),
  content_unschedule: async (fx) => fx.target("scheduled"),
  content_discard_draft: async (fx) => fx.target("changed"),
  content_restore: async (fx) => fx.target("trashed"),
  content_duplicate: async (fx) => ({ collection: fx.collection, id: fx.itemId }),
  revision_list: async (fx) => ({ collection: fx.collection, id: fx.itemId }),
  revision_restore: async (fx) => ({ revisionId: await fx.revision() }),
  // undo (SPEC 9.3): a dry run over what the session's user did since yesterday (its setup made items)
  changes_revert: async (fx) => {
    const got = await fx.call("content_get", { collection: fx.collection, id: fx.itemId });
    const since = new Date(Date.now() - 86_400_000).toISOString();
    return { by: { user: String(got.item.authorId) }, since, dryRun: true };
  },
  search: async (fx) => ({ query: "searchable", collections: [fx.collection], limit: 5 }),
  // media
  media_list: async () => ({ mimeType: "image/", limit: 5 }),
  media_get: async (fx) => ({ id: fx.mediaId }),
  media_create: async (fx) => ({ filename: "placed.png", mimeType: "image/png", storageKey: fx.storageKey() }),
  media_upload: async (fx) => {
    const name = fx.uniq("u");
    return { filename: `${name}.png`, data: uniquePng(name), caption: "Uploaded" };
  },
  media_update: async (fx) => ({ id: fx.mediaId, caption: `Caption ${fx.uniq("c")}` }),
  media_delete: async (fx) => ({ id: await fx.media() }),
  media_upload_url: async (fx) => ({ filename: `${fx.uniq("u")}.png`, mimeType: "image/png", size: 100 }),
  media_confirm: async (fx) => fx.signedUpload(),
  media_usage_repair: async (fx) => ({ mediaId: fx.mediaId }),
  // settings
  settings_get: async () => ({}),
  settings_update: async (fx) => ({ tagline: `Tagline ${fx.uniq("s")}` }),
  // taxonomies
  taxonomy_list: async () => ({}),
  taxonomy_list_terms: async () => ({ taxonomy: "tag", limit: 5 }),
  taxonomy_create_term: async (fx) => ({ taxonomy: "tag", slug: fx.uniq("term"), label: "New term" }),
  taxonomy_update_term: async (fx) => ({ taxonomy: "tag", termSlug: await fx.term(), label: "Renamed term" }),
  taxonomy_delete_term: async (fx) => ({ taxonomy: "tag", termSlug: await fx.term() }),
  taxonomy_create: async (fx) => ({ name: fx.uniq("tax"), label: "Made", collections: [fx.collection] }),
  taxonomy_update: async (fx) => ({ name: await fx.newTaxonomy(), collections: [fx.collection] }),
  taxonomy_delete: async (fx) => ({ name: await fx.newTaxonomy() }),
  taxonomy_term_translations: async (fx) => ({ taxonomy: "tag", termSlug: await fx.term() }),
  // menus
  menu_list: async () => ({}),
  menu_get: async (fx) => ({ name: fx.menu }),
  menu_create: async (fx) => ({ name: fx.uniq("menu"), label: "New menu" }),
  menu_update: async (fx) => ({ name: fx.menu, label: `Menu ${fx.uniq("l")}` }),
  menu_delete: async (fx) => ({ name: await fx.newMenu() }),
  menu_translations: async (fx) => ({ name: fx.menu }),
  menu_set_items: async (fx) => ({
    name: fx.menu,
    items: [
      { label: "Home", type: "custom", customUrl: "/" },
      { label: "Item", type: "post", referenceCollection: fx.collection, referenceId: fx.itemId, parentIndex: 0 },
    ],
  }),
  // bylines (SPEC 10)
  byline_list: async () => ({ limit: 5 }),
  byline_get: async (fx) => ({ id: await fx.byline() }),
  byline_create: async (fx) => ({ slug: `b${fx.uniq("b").toLowerCase().replaceAll("_", "-")}`, displayName: "New" }),
  byline_update: async (fx) => ({ id: await fx.byline(), bio: "Updated by SDK" }),
  byline_delete: async (fx) => ({ id: await fx.byline() }),
  byline_translations: async (fx) => ({ id: await fx.byline() }),
  // moving in (SPEC 12)
  import_wordpress: async () => ({ url: await servedWxr() }),
  // redirects
  redirect_list: async () => ({}),
  redirect_create: async (fx) => ({ source: `/old/${fx.uniq("r")}/`, target: "/" }),
  redirect_delete: async (fx) => ({ redirectId: await fx.redirect() }),
  // change sets (SPEC 9.2)
  changeset_list: async () => ({ limit: 5 }),
  changeset_get: async (fx) => ({ id: await fx.changeset() }),
  changeset_create: async (fx) => ({ title: `Proposal ${fx.uniq("p")}`, description: "From an SDK" }),
  changeset_add: async (fx) => ({
    id: await fx.changeset(),
    collection: fx.collection,
    item: fx.itemId,
    action: "unpublish",
  }),
  changeset_remove: async (fx) => await fx.changesetEntry(),
  changeset_submit: async (fx) => ({ id: await fx.changeset() }),
  changeset_review: async (fx) => ({ id: await fx.changeset("submitted"), decision: "reject", comment: "Not yet" }),
  changeset_publish: async (fx) => ({ id: await fx.changeset("approved") }),
  changeset_revert: async (fx) => ({ id: await fx.changeset("published") }),
};

// The listed tools that have no builder, and the builders for tools that are not listed (stale entries).
export function coverage(listed) {
  const names = new Set(listed);
  return {
    missing: listed.filter((name) => !(name in BUILDERS)),
    stale: Object.keys(BUILDERS).filter((name) => !names.has(name)),
  };
}
