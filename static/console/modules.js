// A module imported when first drawn, then kept for the page load: the shell's screens (screens.js) and the gig
// page's tabs (screens/gig/tabs.js) come this way.
//
//   const { module, failure } = useModule(`screen:${pattern}`, () => import("./screens/x.js"));
//   module (null while it loads), failure (what import() threw, kept once it has failed)

import { useEffect, useState } from "./lib.js";

const loaded = new Map(); // name -> the module, once imported

/** The module `load()` imports, named `name` (null: none); imported the first time a component asks for it. */
export function useModule(name, load) {
  const [, setLoadedCount] = useState(0);
  const [failure, setFailure] = useState(null);
  useEffect(() => {
    if (name === null || loaded.has(name)) return;
    load().then(
      (module) => {
        loaded.set(name, module);
        setLoadedCount((count) => count + 1);
      },
      (error) => setFailure(error),
    );
  }, [name]);
  return { module: name === null ? null : loaded.get(name) || null, failure };
}
