import { describe, expect, it } from "vitest";
import { adjacentByTime, type KeyPlayer, type PlayerState, runPlayerCommand, seekTarget, steppedVolume } from "@/lib/player/commands";
import { isTyping, type KeyPress, type PlayerCommand, playerCommand } from "@/lib/player/keys";

/** A tiny element tree: enough of the DOM for the keymap (tag, attributes, `closest` over simple selectors). */
interface FakeElement {
  tagName: string;
  isContentEditable?: boolean;
  attributes: Record<string, string>;
  parent: FakeElement | null;
  getAttribute(name: string): string | null;
  closest(selector: string): FakeElement | null;
}

function matches(element: FakeElement, selector: string): boolean {
  const match = /^([a-z]*)(?:\[([a-z-]+)(?:=([a-z]+))?\])?$/.exec(selector.trim());
  if (!match) throw new Error(`selector the fake doesn't know: ${selector}`);
  const [, tag, attribute, value] = match;
  if (tag && element.tagName.toLowerCase() !== tag) return false;
  if (attribute && !(attribute in element.attributes)) return false;
  if (attribute && value !== undefined && element.attributes[attribute] !== value) return false;
  return true;
}

function element(
  tagName: string,
  attributes: Record<string, string> = {},
  parent: FakeElement | null = null,
  editable = false,
): FakeElement {
  const self: FakeElement = {
    tagName: tagName.toUpperCase(),
    isContentEditable: editable,
    attributes,
    parent,
    getAttribute: (name) => attributes[name] ?? null,
    closest(selector) {
      for (let at: FakeElement | null = self; at; at = at.parent) if (selector.split(",").some((part) => matches(at!, part))) return at;
      return null;
    },
  };
  return self;
}

const body = element("body");
const press = (key: string, options: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  defaultPrevented: false,
  target: body,
  ...options,
});

describe("the player's keymap", () => {
  it("maps each shortcut to its command", () => {
    const expected: Array<[string, PlayerCommand]> = [
      [" ", { kind: "toggle" }],
      ["k", { kind: "toggle" }],
      ["K", { kind: "toggle" }], // Caps Lock
      ["j", { kind: "seekBy", seconds: -10 }],
      ["l", { kind: "seekBy", seconds: 10 }],
      ["ArrowLeft", { kind: "seekBy", seconds: -5 }],
      ["ArrowRight", { kind: "seekBy", seconds: 5 }],
      ["ArrowUp", { kind: "volumeBy", step: 0.1 }],
      ["ArrowDown", { kind: "volumeBy", step: -0.1 }],
      ["m", { kind: "mute" }],
      ["0", { kind: "jumpTo", fraction: 0 }],
      ["3", { kind: "jumpTo", fraction: 0.3 }],
      ["9", { kind: "jumpTo", fraction: 0.9 }],
      [",", { kind: "comment", direction: -1 }],
      [".", { kind: "comment", direction: 1 }],
      ["c", { kind: "compose" }],
      ["?", { kind: "help" }],
    ];
    for (const [key, command] of expected) expect(playerCommand(press(key)), key).toEqual(command);
    expect(playerCommand(press("?", { shiftKey: true }))).toEqual({ kind: "help" });
  });

  it("leaves other keys alone", () => {
    for (const key of ["a", "Enter", "Tab", "Escape", "Home", "End", "PageDown", "F5", "/"])
      expect(playerCommand(press(key)), key).toBeNull();
  });

  it("never acts while the person types in a field", () => {
    const form = element("form");
    const fields = [
      element("input", {}, form),
      element("input", { type: "text" }, form),
      element("input", { type: "search" }),
      element("input", { type: "TIME" }),
      element("textarea", {}, form),
      element("select"),
      element("div", {}, null, true),
      element("div", { role: "textbox" }),
      element("input", { role: "combobox" }),
    ];
    for (const field of fields) {
      for (const key of [" ", "k", "j", "ArrowLeft", "ArrowUp", "m", "5", ",", "c", "?"]) {
        expect(playerCommand(press(key, { target: field })), `${field.tagName} ${key}`).toBeNull();
      }
      expect(isTyping(field)).toBe(true);
    }
    expect(isTyping(element("input", { type: "checkbox" }))).toBe(false);
    expect(isTyping(body)).toBe(false);
    expect(isTyping(null)).toBe(false);
  });

  it("leaves the browser's and the system's shortcuts alone", () => {
    for (const modifier of ["ctrlKey", "metaKey", "altKey"] as const) {
      for (const key of [" ", "k", "l", "ArrowLeft", "c", "0", "?"])
        expect(playerCommand(press(key, { [modifier]: true })), `${modifier}+${key}`).toBeNull();
    }
    for (const key of ["K", "ArrowRight", "M", "C"]) expect(playerCommand(press(key, { shiftKey: true })), `Shift+${key}`).toBeNull();
  });

  it("gives a focused button Space, and a slider its arrows", () => {
    const button = element("button");
    const inLink = element("span", {}, element("a", { href: "/x" }));
    const checkbox = element("input", { type: "checkbox" });
    for (const target of [button, inLink, checkbox, element("div", { role: "button" })]) {
      expect(playerCommand(press(" ", { target })), target.tagName).toBeNull();
      // Its other keys are still the player's.
      expect(playerCommand(press("k", { target }))).toEqual({ kind: "toggle" });
    }
    const slider = element("div", { role: "slider" });
    const range = element("input", { type: "range" });
    for (const target of [slider, range, element("button", {}, element("div", { role: "listbox" }))]) {
      for (const key of ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"]) expect(playerCommand(press(key, { target })), key).toBeNull();
      expect(playerCommand(press("l", { target }))).toEqual({ kind: "seekBy", seconds: 10 });
    }
    expect(playerCommand(press(" ", { target: slider }))).toEqual({ kind: "toggle" });
    // A media element with its own controls, focused, plays with Space and seeks with the arrows itself.
    for (const target of [element("audio", { controls: "" }), element("video", { controls: "" })]) {
      for (const key of [" ", "ArrowLeft", "ArrowRight"]) expect(playerCommand(press(key, { target })), key).toBeNull();
      expect(playerCommand(press("j", { target }))).toEqual({ kind: "seekBy", seconds: -10 });
    }
  });

  it("leaves a press a control already handled (the timeline's markers take their arrows)", () => {
    expect(playerCommand(press("ArrowRight", { defaultPrevented: true }))).toBeNull();
    expect(playerCommand(press(" ", { defaultPrevented: true }))).toBeNull();
  });
});

/** A player as plain state, recording what it was told. */
function fakePlayer(initial: Partial<PlayerState> = {}, extra: Partial<KeyPlayer> = {}) {
  const state: PlayerState = { time: 100, duration: 200, playing: false, volume: 0.5, muted: false, ...initial };
  const player: KeyPlayer = {
    state: () => ({ ...state }),
    play: () => void (state.playing = true),
    pause: () => void (state.playing = false),
    seek: (seconds) => void (state.time = seconds),
    setVolume: (volume) => void (state.volume = volume),
    setMuted: (muted) => void (state.muted = muted),
    comment: (direction) => (direction === 1 ? "next" : "previous"),
    compose: () => "composing",
    ...extra,
  };
  return { state, player };
}

describe("running a shortcut", () => {
  it("plays and pauses, saying so", () => {
    const { state, player } = fakePlayer();
    expect(runPlayerCommand({ kind: "toggle" }, player)).toBe("Playing");
    expect(state.playing).toBe(true);
    expect(runPlayerCommand({ kind: "toggle" }, player)).toBe("Paused");
    expect(state.playing).toBe(false);
  });

  it("seeks by seconds within the track, and to tenths of it", () => {
    const { state, player } = fakePlayer({ time: 102 });
    expect(runPlayerCommand({ kind: "seekBy", seconds: 10 }, player)).toBe("Forward 10 seconds — 1:52");
    expect(state.time).toBe(112);
    expect(runPlayerCommand({ kind: "seekBy", seconds: -5 }, player)).toBe("Back 5 seconds — 1:47");
    expect(state.time).toBe(107);
    expect(runPlayerCommand({ kind: "jumpTo", fraction: 0.3 }, player)).toBe("30% — 1:00");
    expect(state.time).toBe(60);
    state.time = 195;
    runPlayerCommand({ kind: "seekBy", seconds: 10 }, player);
    expect(state.time).toBe(200);
    state.time = 3;
    runPlayerCommand({ kind: "seekBy", seconds: -10 }, player);
    expect(state.time).toBe(0);
    expect(seekTarget(50, 10, null)).toBe(60);
  });

  it("says when the length isn't known for a jump", () => {
    const { state, player } = fakePlayer({ duration: null });
    expect(runPlayerCommand({ kind: "jumpTo", fraction: 0.5 }, player)).toMatch(/length isn't known/);
    expect(state.time).toBe(100);
  });

  it("steps the volume by tenths and mutes at nothing", () => {
    const { state, player } = fakePlayer({ volume: 0.5 });
    expect(runPlayerCommand({ kind: "volumeBy", step: 0.1 }, player)).toBe("Volume 60%");
    expect(state.volume).toBe(0.6);
    expect(steppedVolume(0.95, 0.1)).toBe(1);
    expect(steppedVolume(0.04, -0.1)).toBe(0);
    state.volume = 0.1;
    expect(runPlayerCommand({ kind: "volumeBy", step: -0.1 }, player)).toBe("Muted");
    expect(state.muted).toBe(true);
    expect(runPlayerCommand({ kind: "volumeBy", step: 0.1 }, player)).toBe("Volume 10%");
    expect(state.muted).toBe(false);
    state.volume = 0.8;
    state.muted = true;
    expect(runPlayerCommand({ kind: "volumeBy", step: -0.1 }, player)).toBe("Volume 70%");
    expect(state).toMatchObject({ volume: 0.7, muted: false });
  });

  it("mutes and unmutes, coming back audible", () => {
    const { state, player } = fakePlayer({ volume: 0.7 });
    expect(runPlayerCommand({ kind: "mute" }, player)).toBe("Muted");
    expect(state.muted).toBe(true);
    expect(runPlayerCommand({ kind: "mute" }, player)).toBe("Unmuted — volume 70%");
    state.volume = 0;
    state.muted = true;
    expect(runPlayerCommand({ kind: "mute" }, player)).toBe("Unmuted — volume 50%");
    expect(state.volume).toBe(0.5);
  });

  it("says the player hasn't loaded when there is no volume to change", () => {
    const { player } = fakePlayer({ volume: null });
    expect(runPlayerCommand({ kind: "mute" }, player)).toMatch(/hasn't loaded/);
    expect(runPlayerCommand({ kind: "volumeBy", step: 0.1 }, player)).toMatch(/hasn't loaded/);
  });

  it("hands comments and composing to the page, and lets it refuse", () => {
    const { state, player } = fakePlayer(
      {},
      { refuse: (command) => (command.kind === "seekBy" ? "Only the host moves the session" : null) },
    );
    expect(runPlayerCommand({ kind: "comment", direction: 1 }, player)).toBe("next");
    expect(runPlayerCommand({ kind: "comment", direction: -1 }, player)).toBe("previous");
    expect(runPlayerCommand({ kind: "compose" }, player)).toBe("composing");
    expect(runPlayerCommand({ kind: "seekBy", seconds: 10 }, player)).toBe("Only the host moves the session");
    expect(state.time).toBe(100);
  });

  it("finds the previous and next comment by time", () => {
    const items = [{ at: 30 }, { at: 10 }, { at: 20 }];
    expect(adjacentByTime(items, 0, 1)).toEqual({ at: 10 });
    expect(adjacentByTime(items, 10, 1)).toEqual({ at: 20 });
    expect(adjacentByTime(items, 10.2, -1)).toBeNull(); // just past the first: nothing before it
    expect(adjacentByTime(items, 20.5, -1)).toEqual({ at: 10 }); // just past one: the one before
    expect(adjacentByTime(items, 25, -1)).toEqual({ at: 20 });
    expect(adjacentByTime(items, 30, 1)).toBeNull();
  });
});
