// "Your wishes" on the client's page (SPEC §16): the couple's timeline (a time and a note proposed for each moment),
// their song wishes (picked from the band's repertoire by title or artist, or typed with a link, on a moment such as
// the first dance) and their notes to the band, as `GET /v1/client` answers them in `wishes`; changed through
// `/v1/client/...` with the link's token until the planning locks, then read only with the office's phone number.
// Plain DOM, text nodes only; its look in a style element under the page's nonce (the page's CSP allows no other).
import { refusal } from "./actions.js";
import { t } from "./words.js";

const STYLE = `
  #wishes form, #wishes fieldset { display: grid; gap: .5rem; margin: .5rem 0 1rem; }
  #wishes fieldset { border: 1px solid var(--rule); border-radius: .4rem; padding: .6rem .9rem; }
  #wishes form fieldset { margin: 0; }
  #wishes legend { font-weight: 600; padding: 0 .3rem; }
  #wishes h4 { margin: 0; }
  #wishes .found:empty { display: none; }
  #wishes-status:empty { display: none; }
  #wishes label { display: grid; gap: .15rem; font-weight: 600; }
  #wishes input, #wishes select, #wishes textarea { width: 100%; font: inherit; color: inherit; background: var(--background);
    border: 1px solid var(--muted); border-radius: .3rem; padding: .4rem .5rem; min-height: 44px; }
  #wishes textarea { min-height: 5rem; }
  #wishes ul { list-style: none; padding: 0; margin: .5rem 0; }
  #wishes li { display: flex; flex-wrap: wrap; gap: .3rem .75rem; align-items: center; justify-content: space-between;
    padding: .4rem 0; border-bottom: 1px solid var(--rule); }
  #wishes .choice { display: flex; gap: .4rem; align-items: center; font-weight: 400; }
  #wishes .choice input { width: auto; min-height: 0; }
  #wishes .found button { width: 100%; text-align: left; }
  #wishes .said { color: var(--muted); }
`;

const SEARCH_PAUSE_MS = 400;
const KINDS = () => ({ request: t("Please play"), do_not_play: t("Please don't play") });

function make(tag, text, attributes) {
  const made = document.createElement(tag);
  if (text !== undefined && text !== null) made.textContent = text;
  Object.entries(attributes || {}).forEach(([name, value]) => made.setAttribute(name, value));
  return made;
}

function labelled(text, control) {
  const label = make("label", text);
  label.append(control);
  return label;
}

function styled() {
  if (document.getElementById("wishes-style")) return;
  const style = make("style", STYLE, { id: "wishes-style" });
  style.nonce = document.querySelector("style[nonce]").nonce; // the page's policy names its nonce alone
  document.head.append(style);
}

// The couple's link's endpoints under `/client` through the page's one API (actions.js): the answer's data, or an
// error thrown with its refusal in words.
function caller(api) {
  return async (method, path, body, query) => {
    const result = await api.send(method, "/client" + path, body || undefined, query);
    if (!result.ok) throw new Error(refusal(result));
    return result.body && result.body.data;
  };
}

function day(date, language) {
  return new Intl.DateTimeFormat(language, { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }).format(
    new Date(date + "T12:00:00Z"),
  );
}

function intro(wishes, office, language) {
  const date = day(wishes.planning_locks_on, language);
  if (wishes.open) return make("p", t("Tell the band what you wish for your day, until {date}.", { date }));
  const said = make("p", t("Your wishes are final since {date}. To change anything, call {office}:", { date, office: office.name }) + " ");
  const phone = office.phone ? make("a", office.phone, { href: "tel:" + office.phone.replace(/[^+0-9]/g, "") }) : null;
  const mail = !phone && office.email ? make("a", office.email, { href: "mailto:" + office.email }) : null;
  said.append(phone || mail || t("the office"));
  return said;
}

function timeline(wishes, act) {
  const part = make("div");
  part.append(make("h3", t("Your day's timeline")));
  if (wishes.timeline.length === 0) part.append(make("p", t("The band has not planned the moments of your day yet."), { class: "said" }));
  wishes.timeline.forEach((moment) => {
    const planned = moment.time ? t("{moment}, planned at {time}", { moment: moment.name, time: moment.time }) : moment.name;
    if (!wishes.open) {
      const yours = [moment.proposed_time, moment.proposed_note].filter(Boolean).join(" · ");
      part.append(make("p", yours ? planned + " — " + t("your wish: {wish}", { wish: yours }) : planned));
      return;
    }
    const form = make("form");
    const group = make("fieldset");
    const time = make("input", null, { type: "time", name: "proposed_time" });
    const note = make("textarea", null, { name: "proposed_note", maxlength: "2000" });
    time.value = moment.proposed_time || "";
    note.value = moment.proposed_note || "";
    group.append(make("legend", planned), labelled(t("Your time for {moment}", { moment: moment.name }), time),
      labelled(t("Your note on {moment}", { moment: moment.name }), note),
      make("button", t("Save"), { type: "submit", "aria-label": t("Save your wish for {moment}", { moment: moment.name }) }));
    form.append(group);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const proposal = { proposed_time: time.value || null, proposed_note: note.value || null };
      act(["PATCH", "/moments/" + moment.id, proposal], t("Your wish for {moment} is saved.", { moment: moment.name }),
        (kept, saved) => { kept.timeline = kept.timeline.map((one) => (one.id === saved.id ? saved : one)); });
    });
    part.append(form);
  });
  return part;
}

function named(song) {
  return song.artist ? t("{title} by {artist}", { title: song.title, artist: song.artist }) : song.title;
}

function songLine(song, wishes) {
  const moment = wishes.timeline.find((one) => one.id === song.gig_moment_id);
  const parts = [named(song)];
  parts.push(KINDS()[song.kind]);
  if (moment) parts.push(moment.name);
  return parts.join(" · ");
}

function songList(wishes, act) {
  const list = make("ul");
  wishes.songs.forEach((song) => {
    const item = make("li");
    item.append(make("span", songLine(song, wishes)));
    if (song.link && /^https?:\/\//i.test(song.link)) item.append(make("a", t("Listen"), { href: song.link, rel: "noopener noreferrer", target: "_blank" }));
    if (wishes.open && song.from_client) {
      const remove = make("button", t("Remove"), { type: "button", class: "quiet", "aria-label": t("Remove {title}", { title: song.title }) });
      remove.addEventListener("click", () => act(["DELETE", "/songs/" + song.id], t("{title} is removed.", { title: song.title }),
        (kept) => { kept.songs = kept.songs.filter((one) => one.id !== song.id); }));
      item.append(remove);
    }
    list.append(item);
  });
  return list;
}

function kindChoice() {
  const group = make("fieldset");
  group.append(make("legend", t("Your wish")));
  Object.entries(KINDS()).forEach(([kind, text], index) => {
    const choice = make("label", null, { class: "choice" });
    const radio = make("input", null, { type: "radio", name: "kind", value: kind });
    radio.checked = index === 0;
    choice.append(radio, text);
    group.append(choice);
  });
  return group;
}

function songForm(wishes, call, act) {
  const form = make("form", null, { "aria-labelledby": "add-song-heading" });
  const search = make("input", null, { type: "search", name: "q", maxlength: "100", autocomplete: "off" });
  const found = make("ul", null, { class: "found", "aria-live": "polite" });
  const title = make("input", null, { name: "title", maxlength: "200" });
  const artist = make("input", null, { name: "artist", maxlength: "200" });
  const link = make("input", null, { type: "url", name: "link", maxlength: "2000", placeholder: "https://" });
  const moment = make("select", null, { name: "gig_moment_id" });
  let picked = null;
  moment.append(make("option", t("Any time"), { value: "" }));
  wishes.timeline.forEach((one) => moment.append(make("option", one.name, { value: one.id })));
  const pick = (song) => {
    picked = song;
    title.value = song.title;
    artist.value = song.artist || "";
    found.replaceChildren(make("li", t("Picked: {song}", { song: named(song) })));
  };
  let asked = 0;
  search.addEventListener("input", () => {
    const mine = ++asked;
    setTimeout(() => mine === asked && lookUp(mine), SEARCH_PAUSE_MS); // when the typing pauses: each ask counts
  });
  const lookUp = async (mine) => {
    const text = search.value.trim();
    if (text.length < 2) return found.replaceChildren();
    const songs = await call("GET", "/repertoire", null, { q: text }).catch(() => []);
    if (mine !== asked) return; // a later search answers
    found.replaceChildren(...(songs.length ? songs.map((song) => {
      const button = make("button", named(song), { type: "button", class: "quiet" });
      button.addEventListener("click", () => pick(song));
      const item = make("li");
      item.append(button);
      return item;
    }) : [make("li", t("No song of the band's matches: type its title below."), { class: "said" })]));
  };
  title.addEventListener("input", () => { picked = picked && picked.title === title.value ? picked : null; });
  form.append(make("h4", t("Add a song"), { id: "add-song-heading" }), kindChoice(),
    labelled(t("Find a song the band plays (title or artist)"), search), found,
    labelled(t("Title"), title), labelled(t("Artist"), artist), labelled(t("A link to hear it (optional)"), link),
    labelled(t("For which moment?"), moment), make("button", t("Add the song"), { type: "submit" }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const body = picked ? { song_id: picked.id } : { title: title.value, artist: artist.value || null };
    body.kind = form.elements.kind.value;
    if (link.value) body.link = link.value;
    if (moment.value) body.gig_moment_id = moment.value;
    act(["POST", "/songs", body], t("{title} is on your list.", { title: title.value }), (kept, added) => kept.songs.push(added));
  });
  return form;
}

function songs(wishes, call, act) {
  const part = make("div");
  part.append(make("h3", t("Songs")));
  if (wishes.songs.length === 0) part.append(make("p", t("No song wishes yet."), { class: "said" }));
  part.append(songList(wishes, act));
  if (wishes.open) part.append(songForm(wishes, call, act));
  return part;
}

function notes(wishes, act) {
  const part = make("div");
  const list = make("ul");
  part.append(make("h3", t("Notes to the band")));
  wishes.notes.forEach((note) => {
    const item = make("li");
    item.append(make("span", note.body, { class: "text" }));
    if (wishes.open) {
      const remove = make("button", t("Remove"), { type: "button", class: "quiet", "aria-label": t("Remove this note") });
      remove.addEventListener("click", () => act(["DELETE", "/notes/" + note.id], t("Your note is removed."),
        (kept) => { kept.notes = kept.notes.filter((one) => one.id !== note.id); }));
      item.append(remove);
    }
    list.append(item);
  });
  part.append(list);
  if (!wishes.open) return part;
  const form = make("form");
  const body = make("textarea", null, { name: "body", maxlength: "2000", required: "" });
  form.append(labelled(t("Your note to the band"), body), make("button", t("Send the note"), { type: "submit" }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    act(["POST", "/notes", { body: body.value }], t("Your note is sent to the band."), (kept, added) => kept.notes.push(added));
  });
  part.append(form);
  return part;
}

/** Show the couple's wishes in `booking` (before its last section, how to reach the office) from `data`, the
 * answer of `GET /v1/client`, changing them through `api` (actions.js's `clientApi`). */
export function showWishes(booking, data, api) {
  styled();
  const call = caller(api);
  const section = document.getElementById("wishes") || make("section", null, { id: "wishes", "aria-labelledby": "wishes-heading" });
  const status = make("p", null, { role: "status" });
  // A change sent, and its answer kept in `data` by `apply(wishes, answer)`: the link's requests are counted (SPEC
  // §16: per address), so the page asks for nothing it knows already.
  const act = async ([method, path, body], done, apply) => {
    const buttons = [...section.querySelectorAll("button")];
    buttons.forEach((button) => { button.disabled = true; });
    try {
      apply(data.wishes, await call(method, path, body));
      showWishes(booking, data, api);
      document.getElementById("wishes-status").textContent = done;
    } catch (error) {
      status.textContent = error.message;
      status.className = "error";
      buttons.forEach((button) => { button.disabled = false; });
    }
  };
  status.id = "wishes-status";
  section.replaceChildren(make("h2", t("Your wishes"), { id: "wishes-heading" }), intro(data.wishes, data.office, data.language),
    status, timeline(data.wishes, act), songs(data.wishes, call, act), notes(data.wishes, act));
  if (!section.isConnected) booking.insertBefore(section, booking.lastElementChild);
}
