"use client";

import { startTransition, useEffect, useLayoutEffect, useReducer, useRef } from "react";
import { Avatar } from "@/components/avatar";
import {
  announcement,
  autocompleteReducer,
  initialAutocomplete,
  insertMention,
  isOpen,
  type MemberOption,
  queryAt,
} from "@/lib/mentions/autocomplete";
import { searchMembers } from "@/lib/mentions/members";
import { loadSupabaseData } from "@/lib/supabase/browser-clients";

/** Members' answers by room and query, for this page's life: typing back and forth asks once. */
const answers = new Map<string, MemberOption[]>();

export interface MentionEngineProps {
  /** The text field it serves (./mention-textarea.tsx renders it). */
  fieldId: string;
  listId: string;
  roomId: string;
  value: string;
  onValueChange: (value: string) => void;
  /** What the field says to assistive technology: whether the list is open, and its active option. */
  onAria: (aria: { expanded: boolean; active: string | undefined }) => void;
}

export const optionId = (listId: string, index: number) => `${listId}-${index}`;

/**
 * The @ list of a text field, loaded on the field's first focus: it follows the field's typing and
 * caret, reads the room's members matching the @name at the caret, and takes the arrow keys, Enter,
 * Tab and Escape while it is open (before the form around it sees them).
 */
export function MentionEngine({ fieldId, listId, roomId, value, onValueChange, onAria }: MentionEngineProps) {
  const [state, dispatch] = useReducer(autocompleteReducer, initialAutocomplete);
  const latest = useRef({ state, value, onValueChange });
  useLayoutEffect(() => {
    latest.current = { state, value, onValueChange };
  });
  const caretAfterPick = useRef<number | null>(null);
  const open = isOpen(state);
  const query = state.at && state.dismissed !== state.at.start ? state.at.query : null;
  const field = () => document.getElementById(fieldId) as HTMLTextAreaElement | null;

  useEffect(() => {
    onAria({ expanded: open, active: open ? optionId(listId, state.active) : undefined });
  }, [open, state.active, listId, onAria]);

  useEffect(() => {
    if (query === null) return;
    const key = `${roomId}:${query}`;
    const known = answers.get(key);
    if (known) return dispatch({ type: "results", query, options: known });
    let live = true;
    const timer = setTimeout(async () => {
      const options = await searchMembers(await loadSupabaseData(), roomId, query).catch(() => null);
      if (!options) return;
      answers.set(key, options);
      if (live) dispatch({ type: "results", query, options });
    }, 100);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [roomId, query]);

  // After a pick the text re-renders with the name in it: the caret goes right after it.
  useLayoutEffect(() => {
    const caret = caretAfterPick.current;
    const element = field();
    if (caret === null || !element) return;
    caretAfterPick.current = null;
    element.setSelectionRange(caret, caret);
  });

  const pick = (option: MemberOption) => {
    const element = field();
    const { state: now, value: text, onValueChange: change } = latest.current;
    if (!now.at || !element) return;
    const next = insertMention(text, now.at, element.selectionStart, option.username);
    caretAfterPick.current = next.caret;
    change(next.text);
    dispatch({ type: "picked" });
    element.focus();
  };
  const pickRef = useRef(pick);
  useLayoutEffect(() => {
    pickRef.current = pick;
  });

  useEffect(() => {
    const element = document.getElementById(fieldId) as HTMLTextAreaElement | null;
    if (!element) return;
    // A transition: these listeners run before React's own onChange, and an urgent update here
    // would render the field with the text before this keystroke and so drop the keystroke.
    const follow = () => startTransition(() => dispatch({ type: "typed", at: queryAt(element.value, element.selectionStart) }));
    const caretMoved = () => {
      if (document.activeElement === element) follow();
    };
    const close = () => dispatch({ type: "typed", at: null });
    // The field's own listener runs before React's (at the root): a key the list takes goes no further.
    const keys = (event: KeyboardEvent) => {
      const { state: now } = latest.current;
      if (!isOpen(now)) return;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        dispatch({ type: "move", by: event.key === "ArrowDown" ? 1 : -1 });
      } else if ((event.key === "Enter" && !event.shiftKey) || event.key === "Tab") {
        event.preventDefault();
        event.stopPropagation();
        pickRef.current(now.options[now.active]);
      } else if (event.key === "Escape") {
        // Closes the list only: the text stays, and a form around it stays open.
        event.preventDefault();
        event.stopPropagation();
        dispatch({ type: "dismiss" });
      }
    };
    element.addEventListener("input", follow);
    element.addEventListener("keydown", keys);
    element.addEventListener("blur", close);
    document.addEventListener("selectionchange", caretMoved);
    if (document.activeElement === element) follow();
    return () => {
      element.removeEventListener("input", follow);
      element.removeEventListener("keydown", keys);
      element.removeEventListener("blur", close);
      document.removeEventListener("selectionchange", caretMoved);
    };
  }, [fieldId]);

  return (
    <>
      <ul
        id={listId}
        role="listbox"
        aria-label="People in this room"
        hidden={!open}
        // In the flow under the field, not floating over the page: inside a scrolled list (the
        // comments) nothing clips it.
        className="mt-1 flex max-h-64 flex-col overflow-y-auto rounded-xl border border-line bg-raised p-1 shadow-md"
      >
        {open
          ? state.options.map((option, index) => (
              <li
                key={option.id}
                id={optionId(listId, index)}
                role="option"
                aria-selected={index === state.active}
                // Keeps the focus (and the caret) in the text while the pointer picks.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pick(option)}
                className={`flex min-h-10 cursor-pointer items-center gap-2 rounded-lg px-2 py-1.5 text-sm ${index === state.active ? "bg-accent/15" : "hover:bg-line/60"}`}
              >
                <Avatar path={option.avatar_path} name={option.display_name || option.username} size={24} />
                <span className="flex min-w-0 flex-col sm:flex-row sm:items-baseline sm:gap-2">
                  <span className="truncate font-medium">{option.display_name || option.username}</span>
                  <span className="truncate text-muted">@{option.username}</span>
                </span>
              </li>
            ))
          : null}
      </ul>
      <p aria-live="polite" className="sr-only">
        {announcement(state)}
      </p>
    </>
  );
}
