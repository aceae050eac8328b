"use client";

import { type TextareaHTMLAttributes, useCallback, useState } from "react";
import { lazyComponent } from "@/components/lazy";
import { TextAreaField } from "@/components/ui/field";

// The @ list (its state, the members' read, the options) loads on the field's first focus, so the
// pages with these fields do not carry it in their first load.
const MentionEngine = lazyComponent(() => import("./mention-engine").then((module) => module.MentionEngine));

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

/**
 * A text field where typing "@" offers the room's members matching what follows (username or
 * display name). Keyboard first: ArrowUp/ArrowDown move, Enter or Tab inserts "@username ", Escape
 * closes the list and keeps the text. The field stays a textbox (ARIA allows a <textarea> no other
 * role) that names its listbox and its active option, which is announced.
 */
export function MentionTextArea({ roomId, value, onValueChange, id, onFocus, ...field }: Props) {
  const [engaged, setEngaged] = useState(false);
  const [aria, setAria] = useState<{ expanded: boolean; active: string | undefined }>({ expanded: false, active: undefined });
  const onAria = useCallback((next: typeof aria) => setAria(next), []);
  const listId = `${id}-mentions`;
  return (
    <div>
      <TextAreaField
        {...field}
        id={id}
        value={value}
        aria-autocomplete="list"
        aria-haspopup="listbox"
        aria-controls={listId}
        aria-activedescendant={aria.active}
        onFocus={(event) => {
          setEngaged(true);
          onFocus?.(event);
        }}
        onChange={(event) => onValueChange(event.target.value)}
      />
      {engaged ? (
        <MentionEngine fieldId={id} listId={listId} roomId={roomId} value={value} onValueChange={onValueChange} onAria={onAria} />
      ) : (
        <ul id={listId} role="listbox" aria-label="People in this room" hidden />
      )}
    </div>
  );
}
