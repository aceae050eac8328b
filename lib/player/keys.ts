// The player's keyboard shortcuts as plain data: a key press → the command it stands for, or null
// when the press is someone else's (typing in a field, a focused control's own keys, a shortcut of
// the browser or the system). No DOM access beyond reading the event, so it is unit-tested as is.

export type PlayerCommand =
  | { kind: "toggle" }
  | { kind: "seekBy"; seconds: number }
  | { kind: "volumeBy"; step: number }
  | { kind: "mute" }
  | { kind: "jumpTo"; fraction: number }
  | { kind: "comment"; direction: -1 | 1 }
  | { kind: "compose" }
  | { kind: "help" };

/** What the keymap reads of the element a key press comes from. */
export interface KeyTarget {
  tagName: string;
  isContentEditable?: boolean;
  getAttribute(name: string): string | null;
  closest?(selector: string): unknown;
}

/** What the keymap reads of a key press (a KeyboardEvent has all of it). */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  defaultPrevented: boolean;
  target: KeyTarget | EventTarget | null;
}

const seekKeys: Record<string, number> = { j: -10, l: 10, ArrowLeft: -5, ArrowRight: 5 };
const arrows = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"]);

/** Fields a person types into: every key is theirs. A checkbox, radio, button or range input is not typed into. */
const notTyped = new Set(["checkbox", "radio", "button", "submit", "reset", "range", "color", "file", "image"]);
/**
 * Elements that move with the arrow keys themselves: a seek bar, a list of options, a menu…, and a
 * media element showing its own controls (which seek with the arrows and play with Space).
 */
const arrowRoles =
  "audio,video,[role=slider],[role=listbox],[role=menu],[role=menubar],[role=radiogroup],[role=tablist],[role=tree],[role=grid],[role=spinbutton],[role=scrollbar]";
/** Elements that Space (and Enter) press, which would otherwise be pressed and toggled at once. */
const pressable =
  "audio,video,button,a[href],summary,select,input,[role=button],[role=link],[role=checkbox],[role=switch],[role=menuitem],[role=option],[role=tab],[role=radio]";

function isElement(target: KeyPress["target"]): target is KeyTarget {
  return target !== null && typeof (target as KeyTarget).tagName === "string" && typeof (target as KeyTarget).getAttribute === "function";
}

/** Whether the person is typing in `target` (a text field, a text area, a select, an editable element). */
export function isTyping(target: KeyPress["target"]): boolean {
  if (!isElement(target)) return false;
  const tag = target.tagName.toUpperCase();
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (target.isContentEditable) return true;
  if (target.getAttribute("role") === "textbox" || target.getAttribute("role") === "combobox") return true;
  if (tag === "INPUT") return !notTyped.has((target.getAttribute("type") ?? "text").toLowerCase());
  return false;
}

const within = (target: KeyPress["target"], selector: string) => isElement(target) && Boolean(target.closest?.(selector));

/**
 * The command a key press stands for, or null when the press belongs to something else:
 * - typing in a field (text inputs, text areas, selects, editable elements);
 * - with Ctrl, ⌘ or Alt held (the browser's and the system's shortcuts), or Shift (but `?`);
 * - a press a focused control already handled (`defaultPrevented`: the timeline's markers move with
 *   the arrow keys), or the arrows on a control whose arrows are its own (a slider, a range input);
 * - Space on a button, link or other control Space presses (it would be pressed and toggled at once).
 */
export function playerCommand(press: KeyPress): PlayerCommand | null {
  if (press.defaultPrevented || press.ctrlKey || press.metaKey || press.altKey) return null;
  if (isTyping(press.target)) return null;
  const { key } = press;
  if (key === "?") return { kind: "help" };
  if (press.shiftKey) return null;
  if (arrows.has(key) && (within(press.target, arrowRoles) || within(press.target, "input[type=range]"))) return null;
  const lower = key.length === 1 ? key.toLowerCase() : key;
  if (key === " " || key === "Spacebar") return within(press.target, pressable) ? null : { kind: "toggle" };
  if (lower === "k") return { kind: "toggle" };
  if (lower in seekKeys) return { kind: "seekBy", seconds: seekKeys[lower] };
  if (key === "ArrowUp") return { kind: "volumeBy", step: 0.1 };
  if (key === "ArrowDown") return { kind: "volumeBy", step: -0.1 };
  if (lower === "m") return { kind: "mute" };
  if (/^[0-9]$/.test(key)) return { kind: "jumpTo", fraction: Number(key) / 10 };
  if (key === ",") return { kind: "comment", direction: -1 };
  if (key === ".") return { kind: "comment", direction: 1 };
  if (lower === "c") return { kind: "compose" };
  return null;
}
