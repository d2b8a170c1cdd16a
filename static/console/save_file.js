// Handing bytes the page holds to the browser as a download: a Blob behind a link, clicked and let go (an
// attachment from the API, the pay sheet's CSV made in the page).

/** Offer `blob` as a download named `filename`. */
export function saveBlob(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000); // long enough for a slow disk to take it
}
