// The one place that turns the OpenAPI document (GET /v1/openapi.json, asked once per page load) into what the
// generic pages show (SPEC §12, screen 6): the collections, each record's fields in order with their kinds, the
// references between collections, and what a list can sort, filter and search by. A collection added to the API
// appears in the console with no change here.
//
//   const [doc, error] = useDocument();      // null until it has come
//   const teams = doc.collection("teams");   // {name, group, path, fields, createFields, patchFields, ...} or null
//   doc.collections.filter((c) => c.mayView(me))
//   doc.listOf("/notifications")              // a list that is no collection (no /{id}): its fields and filters
//
// A field: {name, label, help, money, kind, nullable, readOnly, enum, reference, description, maxLength, itemKind, capability};
// `capability` is what a person needs to read it (in a create or patch schema: to set it), else null: a field a
// person cannot use is not shown (`usableBy(me)`, SPEC §12). Its kind is
// one of text, longtext, email, url, date, time, timestamp, integer, number, boolean, enum, reference, list,
// custom (the custom fields, §4.7), object; `opaque` marks an id of nothing the document names (no column shows it).

import { useConsole } from "../context.js";
import { useLoad } from "../load.js";
import { can } from "../me.js";
import { COLLECTIONS, FIELDS } from "./words.js";

const TIME_PATTERN = "^([01][0-9]|2[0-3]):[0-5][0-9]$";
const LONG_TEXT = 1000; // longer strings than this are edited in a text area
const LABEL_SORTS = ["name", "title", "last_name", "label", "url", "gig_date", "created_at"]; // a picker's order
/** The API's document, [doc, error]: asked once a page load (a failure is asked again by the next screen). */
export function useDocument() {
  const { api } = useConsole();
  const found = useLoad(() => api.get("/openapi.json").then((document) => new Document(document)), [], { keep: "openapi" });
  return [found.answer, found.error];
}

const refName = (node) => (node && node.$ref ? node.$ref.split("/").pop() : null);

/** A filter of the fields `me` may use: those without a capability of their own, or whose `me` holds. */
export function usableBy(me) {
  return (field) => !field.capability || can(me, field.capability);
}

/** A field's [label, help] in the console's words (records/words.js), else a label made from its name:
 * "gig_status_id" -> "Gig status", "amount_cents" -> "Amount", "is_default" -> "Default". */
export function wordsOf(name, collection = "") {
  const declared = FIELDS[`${collection}.${name}`] || FIELDS[name];
  if (declared) return declared;
  const words = name.replace(/^is_/, "").replace(/_id$/, "").replace(/_cents$/, "").replace(/_/g, " ");
  return [words.charAt(0).toUpperCase() + words.slice(1), ""];
}

export function labelOf(name, collection = "") {
  return wordsOf(name, collection)[0];
}

/** A collection's name and its line ("Products", "What a couple books…"). */
export function collectionWords(name) {
  return COLLECTIONS[name] || [labelOf(name.replace(/-/g, "_")), ""];
}

/** The alternatives of a property without its null, and whether null is one of them. */
function unwrap(node) {
  const options = node.anyOf || node.oneOf;
  if (options) {
    const kept = options.filter((option) => option.type !== "null");
    return { node: { ...node, ...kept[0], anyOf: undefined, oneOf: undefined }, nullable: kept.length < options.length };
  }
  const types = Array.isArray(node.type) ? node.type : [node.type];
  return { node: { ...node, type: types.find((type) => type !== "null") }, nullable: types.includes("null") };
}

function kindOf(node, name, reference) {
  if (reference) return "reference";
  if (node.enum) return "enum";
  if (name === "custom_fields") return "custom";
  switch (node.type) {
    case "boolean":
      return "boolean";
    case "integer":
      return "integer";
    case "number":
      return "number";
    case "array":
      return "list";
    case "object":
      return "object";
  }
  if (node.format === "date") return "date";
  if (node.format === "date-time") return "timestamp";
  if (node.pattern === TIME_PATTERN) return "time";
  if (node.format === "email") return "email";
  if (node.format === "uri") return "url";
  return node.maxLength && node.maxLength <= LONG_TEXT ? "text" : node.maxLength ? "longtext" : "text";
}

function idsOnly(node) {
  const inner = Object.values(node.properties || {});
  return node.type === "object" && inner.length > 0 && inner.every((one) => one.format === "uuid");
}

/** The parts of a `^(a|b\.c)(,...)*$`-style pattern: ["a", "b.c"]. */
function namesIn(pattern) {
  const found = /^\^-?\??\(([^)]*)\)/.exec(pattern || "");
  return found ? found[1].split("|").map((name) => name.replace(/\\/g, "")) : [];
}

/** {field: Set(operators)} of a list's `filter` parameter, from the key patterns it documents (its pattern
 * properties: `^filter\\[(a|b\\.c)\\]\\[(eq|ne)\\]$`, one per value schema). */
function filtersOf(parameter) {
  const filters = {};
  const pattern = Object.keys(parameter?.schema?.patternProperties || {}).join("|");
  for (const found of pattern.matchAll(/filter\\\[\(([^)]*)\)\\\]\\\[\(([^)]*)\)\\\]/g)) {
    for (const field of found[1].split("|").map((name) => name.replace(/\\/g, ""))) {
      if (field.includes(".")) continue; // through a reference: the referenced record's own list has it
      filters[field] = filters[field] || new Set();
      found[2].split("|").forEach((operator) => filters[field].add(operator));
    }
  }
  return filters;
}

class Document {
  constructor(document) {
    this.raw = document;
    this.schemas = document.components.schemas;
    this.schemaOwners = {}; // record schema name -> collection name
    const candidates = Object.entries(document.paths).filter(([path, item]) => /^\/[a-z-]+$/.test(path) && item.get);
    for (const [path, item] of candidates) {
      const record = this.itemSchemaOf(item.get);
      if (record && document.paths[`${path}/{id}`]?.get) this.schemaOwners[record] = path.slice(1);
    }
    this.collections = candidates
      .filter(([path]) => this.schemaOwners[this.itemSchemaOf(document.paths[path].get)] === path.slice(1))
      .map(([path, item]) => this.describe(path, item, document.paths[`${path}/{id}`]))
      .sort((a, b) => a.name.localeCompare(b.name));
    for (const collection of this.collections) {
      for (const field of [...collection.fields, ...(collection.createFields || []), ...(collection.patchFields || [])]) {
        if (field.reference) field.referenceSort = this.collection(field.reference)?.labelSort;
      }
    }
  }

  collection(name) {
    return this.collections.find((collection) => collection.name === name) || null;
  }

  /** The list at `path` ("/notifications") described as a read-only collection, or null. */
  listOf(path) {
    const item = this.raw.paths[path];
    return item && item.get && this.itemSchemaOf(item.get) ? this.describe(path, item, null) : null;
  }

  itemSchemaOf(operation) {
    const schema = this.resolved(operation.responses?.["200"]?.content?.["application/json"]?.schema);
    const items = schema?.properties?.data?.items;
    if (!items || !schema.properties.meta) return null;
    return refName(items.anyOf ? items.anyOf[0] : items);
  }

  /** A schema, or the component its `$ref` names (answers are shared components: `GigPage`, `GigAnswer`). */
  resolved(node) {
    return node && node.$ref ? this.schemas[refName(node)] : node;
  }

  bodySchemaOf(operation) {
    return operation ? refName(operation.requestBody?.content?.["application/json"]?.schema) : null;
  }

  describe(path, item, single) {
    const record = this.itemSchemaOf(item.get);
    const parameters = Object.fromEntries(item.get.parameters.map((parameter) => [parameter.name, parameter]));
    const create = this.bodySchemaOf(item.post);
    const patch = this.bodySchemaOf(single?.patch);
    const name = path.slice(1);
    return {
      name,
      path,
      group: item.get["x-capability"] ? item.get["x-capability"].split(".")[0] : item.get.tags[0], // the capability's group
      title: collectionWords(name)[0],
      line: collectionWords(name)[1],
      summary: item.get.summary,
      viewCapability: item.get["x-capability"] || null,
      editCapability: (item.post || single?.patch || single?.delete || {})["x-capability"] || null,
      fields: this.fieldsOf(record, name),
      createFields: create ? this.fieldsOf(create, name) : null,
      patchFields: patch ? this.fieldsOf(patch, name) : null,
      deletable: Boolean(single?.delete),
      sortable: new Set(namesIn(parameters.sort?.schema.pattern)),
      expandable: namesIn(parameters.expand?.schema.pattern),
      filters: filtersOf(parameters.filter),
      searchable: Boolean(parameters.q),
      labelSort: LABEL_SORTS.find((name) => namesIn(parameters.sort?.schema.pattern).includes(name)),
      searchHint: parameters.q?.description || "",
      mayView: (me) => !item.get["x-capability"] || can(me, item.get["x-capability"]),
      mayCreate: (me) => Boolean(create) && can(me, item.post["x-capability"]),
      mayChange: (me) => Boolean(patch) && can(me, single.patch["x-capability"]),
      mayDelete: (me) => Boolean(single?.delete) && can(me, single.delete["x-capability"]),
    };
  }

  /** The fields of a schema in its order; embedded records (`expand`) are the references' business. */
  fieldsOf(schemaName, collection) {
    const schema = this.schemas[schemaName];
    const properties = schema.properties || {};
    const required = new Set(schema.required || []);
    const fields = [];
    for (const [name, property] of Object.entries(properties)) {
      const embedded = name.endsWith("_id") ? null : this.embeddedOf(property);
      if (embedded) continue;
      const { node, nullable } = unwrap(property);
      const resolved = node.$ref ? { ...this.schemas[refName(node)], ...node } : node;
      const reference = name.endsWith("_id") ? this.referenceOf(properties, name, schemaName) : null;
      fields.push({
        name,
        label: labelOf(name, collection),
        help: wordsOf(name, collection)[1], // the console's line for a person; `description` is the programmers'
        money: name.endsWith("_cents"),
        kind: kindOf(resolved, name, reference),
        nullable,
        required: required.has(name),
        readOnly: Boolean(property.readOnly),
        capability: property["x-capability"] || null, // a gig role's pay_cents: pay.view, pay.edit in a body
        enum: resolved.enum || null,
        reference,
        description: property.description || "",
        maxLength: resolved.maxLength || null,
        itemKind: resolved.items ? kindOf(resolved.items, "", null) : null,
        defaultValue: resolved.default,
        // an id of nothing the document names, or an object of such ids: nothing a person reads
        opaque: (resolved.format === "uuid" && !reference && name !== "id") || idsOnly(resolved),
      });
    }
    return fields;
  }

  embeddedOf(property) {
    const options = property.anyOf || [];
    return property.readOnly && options.some((option) => option.$ref) ? refName(options.find((option) => option.$ref)) : null;
  }

  /** The collection `<name>_id` names: the record its embedded twin `<name>` (with expand) is, in this schema or
   * in the record schema this one is the create or patch form of. */
  referenceOf(properties, name, schemaName) {
    const twin = name.slice(0, -3);
    const record = this.schemas[schemaName.replace(/(Create|Patch|Request)$/, "")];
    const embedded = this.embeddedOf(properties[twin] || record?.properties?.[twin] || {});
    return embedded ? this.schemaOwners[embedded] || null : null;
  }

  /** The field of `collection` that refers to records of `target` (to list what still uses one), or null. */
  referringField(collection, target) {
    const described = this.collection(collection);
    const field = described && described.fields.find((one) => one.reference === target);
    return field ? field.name : null;
  }
}
