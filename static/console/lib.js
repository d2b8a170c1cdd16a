// The console's one library: Preact with htm (vendored by scripts/vendor.py). Screens import from here, never
// from the vendor path, so a refresh of the library changes one line.
export * from "../vendor/htm/preact/standalone.module.js";
