// The rows of one of the gig's own collections (gig-products, gig-moments, attachments…): asked with
// filter[gig_id], asked again when someone changes the gig (useFollow) and after this person's own changes.

import { api } from "../../api.js";
import { follow } from "../../follow.js";
import { useEffect, useState } from "../../lib.js";

const LIMIT = 200;

export function useRows(path, gigId, query = {}) {
  const [rows, setRows] = useState(null);
  const [error, setError] = useState(null);
  const reload = () =>
    api.get(path, { "filter[gig_id]": gigId, limit: LIMIT, ...query }).then(
      ({ data }) => {
        setRows(data);
        setError(null);
      },
      setError,
    );
  useEffect(() => {
    reload();
    return follow({ gig_id: gigId }, () => reload());
  }, [path, gigId]);
  return { rows, error, reload, setRows };
}
