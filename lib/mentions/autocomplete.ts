// The @ autocomplete of a text field, as a pure reducer: which @name is being typed at the caret,
// the members that match it, the one the arrow keys are on, and what picking one makes of the text.

/** A room member the autocomplete offers. */
export interface MemberOption {
  id: string;
  username: string;
  display_name: string;
  avatar_path: string | null;
}

/** The @name being typed: where its "@" is and what follows it up to the caret. */
export interface MentionQuery {
  start: number;
  query: string;
}

/**
 * The @name the caret is at the end of, if any: an "@" at the start or after a character that does
 * not make it part of a word, an email address or a URL, then up to 24 of a-z 0-9 _.
 */
export function queryAt(text: string, caret: number): MentionQuery | null {
  const before = text.slice(0, caret);
  const match = /(?:^|[^A-Za-z0-9_@./])@([A-Za-z0-9_]{0,24})$/.exec(before);
  if (!match) return null;
  return { start: caret - match[1].length - 1, query: match[1].toLowerCase() };
}

/** The text with the @name being typed replaced by `@username ` and where the caret goes after it. */
export function insertMention(text: string, at: MentionQuery, caret: number, username: string): { text: string; caret: number } {
  const inserted = `@${username} `;
  const rest = text.slice(caret).replace(/^ /, "");
  return { text: text.slice(0, at.start) + inserted + rest, caret: at.start + inserted.length };
}

export interface AutocompleteState {
  /** The @name being typed (null: none, the list is closed). */
  at: MentionQuery | null;
  /** Members matching it, as last read (for `for`). */
  options: MemberOption[];
  /** The query those options answer. */
  for: string | null;
  /** The option the arrow keys are on. */
  active: number;
  /** Closed with Escape at this "@": stays closed until another @name is typed. */
  dismissed: number | null;
}

export const initialAutocomplete: AutocompleteState = { at: null, options: [], for: null, active: 0, dismissed: null };

export type AutocompleteAction =
  | { type: "typed"; at: MentionQuery | null }
  | { type: "results"; query: string; options: MemberOption[] }
  | { type: "move"; by: 1 | -1 }
  | { type: "dismiss" }
  | { type: "picked" };

export function autocompleteReducer(state: AutocompleteState, action: AutocompleteAction): AutocompleteState {
  switch (action.type) {
    case "typed": {
      const dismissed = action.at && state.dismissed === action.at.start ? state.dismissed : null;
      if (state.at?.start === action.at?.start && state.at?.query === action.at?.query && dismissed === state.dismissed) return state;
      return { ...state, at: action.at, active: 0, dismissed };
    }
    case "results":
      // An answer to an older query (typing went on) is not shown.
      if (state.at?.query !== action.query) return state;
      return { ...state, options: action.options, for: action.query, active: 0 };
    case "move": {
      if (!isOpen(state)) return state;
      const count = state.options.length;
      return { ...state, active: (state.active + action.by + count) % count };
    }
    case "dismiss":
      return state.at ? { ...state, dismissed: state.at.start } : state;
    case "picked":
      return { ...initialAutocomplete };
  }
}

/** Whether the list shows: an @name typed, not dismissed, and members that match it. */
export function isOpen(state: AutocompleteState): boolean {
  return state.at !== null && state.dismissed !== state.at.start && state.for === state.at.query && state.options.length > 0;
}

/** What a screen reader hears when the list changes. */
export function announcement(state: AutocompleteState): string {
  if (!isOpen(state)) return "";
  const count = state.options.length;
  return `${count} ${count === 1 ? "person matches" : "people match"}. Up and down arrows to choose, Enter to insert.`;
}
