"use client";

import { type KeyboardEvent, type TextareaHTMLAttributes, useEffect, useLayoutEffect, useReducer, useRef } from "react";
import { Avatar } from "@/components/avatar";
import { TextAreaField } from "@/components/ui/field";
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

type Props = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "value" | "onChange" | "id"> & {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  value: string;
  onValueChange: (value: string) => void;
  /** The room whose members the @ list offers. */
  roomId: string;
};

/** Members' answers by room and query, for this page's life: typing back and forth asks once. */
const answers = new Map<string, MemberOption[]>();

/**
 * A text field where typing "@" offers the room's members matching what follows (username or
 * display name). Keyboard first: ArrowUp/ArrowDown move, Enter or Tab inserts "@username ", Escape
 * closes the list and keeps the text. A combobox with its listbox, the active option announced.
 */
export function MentionTextArea({ roomId, value, onValueChange, id, onKeyDown, ...field }: Props) {
  const [state, dispatch] = useReducer(autocompleteReducer, initialAutocomplete);
  const input = () => document.getElementById(id) as HTMLTextAreaElement | null;
  const caretAfterPick = useRef<number | null>(null);
  const open = isOpen(state);
  const listId = `${id}-mentions`;
  const optionId = (index: number) => `${listId}-${index}`;
  const query = state.at && state.dismissed !== state.at.start ? state.at.query : null;

  useEffect(() => {
    if (query === null) return;
    const key = `${roomId}:${query}`;
    const known = answers.get(key);
    if (known) {
      dispatch({ type: "results", query, options: known });
      return;
    }
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
    const element = input();
    if (caret === null || !element) return;
    caretAfterPick.current = null;
    element.setSelectionRange(caret, caret);
  });

  const follow = (element: HTMLTextAreaElement) => dispatch({ type: "typed", at: queryAt(element.value, element.selectionStart) });

  function pick(option: MemberOption) {
    const element = input();
    if (!state.at || !element) return;
    const next = insertMention(value, state.at, element.selectionStart, option.username);
    caretAfterPick.current = next.caret;
    onValueChange(next.text);
    dispatch({ type: "picked" });
    element.focus();
  }

  function keys(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (open) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        return dispatch({ type: "move", by: event.key === "ArrowDown" ? 1 : -1 });
      }
      if ((event.key === "Enter" && !event.shiftKey) || event.key === "Tab") {
        event.preventDefault();
        return pick(state.options[state.active]);
      }
      if (event.key === "Escape") {
        // Closes the list only: the text stays, and a form around it stays open.
        event.preventDefault();
        event.stopPropagation();
        return dispatch({ type: "dismiss" });
      }
    }
    onKeyDown?.(event);
  }

  return (
    <div className="relative">
      <TextAreaField
        {...field}
        id={id}
        value={value}
        role="combobox"
        aria-autocomplete="list"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open ? optionId(state.active) : undefined}
        onChange={(event) => {
          onValueChange(event.target.value);
          follow(event.target);
        }}
        onSelect={(event) => follow(event.currentTarget)}
        onBlur={() => dispatch({ type: "typed", at: null })}
        onKeyDown={keys}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="People in this room"
        hidden={!open}
        className="absolute inset-x-0 top-full z-20 mt-1 flex max-h-64 flex-col overflow-y-auto rounded-xl border border-line bg-raised p-1 shadow-lg"
      >
        {open
          ? state.options.map((option, index) => (
              <li
                key={option.id}
                id={optionId(index)}
                role="option"
                aria-selected={index === state.active}
                // Keeps the focus (and the caret) in the text while the pointer picks.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pick(option)}
                className={`flex min-h-10 cursor-pointer items-center gap-2 rounded-lg px-2 py-1.5 text-sm ${index === state.active ? "bg-accent/15" : "hover:bg-line/60"}`}
              >
                <Avatar path={option.avatar_path} name={option.display_name || option.username} size={24} />
                <span className="min-w-0 truncate font-medium">{option.display_name || option.username}</span>
                <span className="min-w-0 truncate text-muted">@{option.username}</span>
              </li>
            ))
          : null}
      </ul>
      <p aria-live="polite" className="sr-only">
        {announcement(state)}
      </p>
    </div>
  );
}
