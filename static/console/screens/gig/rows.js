// The rows of one of the gig's own collections (gig-products, gig-moments, attachments…): asked with
// filter[gig_id], asked again when someone changes the gig (useFollow) and after this person's own changes.

import { useConsole } from "../../context.js";
import { useFollow } from "../../follow.js";
import { useLoad } from "../../load.js";

const LIMIT = 200;

export function useRows(path, gigId, query = {}) {
  const { api } = useConsole();
  const found = useLoad(({ signal }) => api.get(path, { "filter[gig_id]": gigId, limit: LIMIT, ...query }, { signal }), [path, gigId]);
  useFollow({ gig_id: gigId }, () => found.reload(), [gigId]);
  return {
    rows: found.answer && found.answer.data,
    error: found.error,
    reload: found.reload,
    setRows: (rows) => found.update((answer) => ({ ...answer, data: rows })),
  };
}
