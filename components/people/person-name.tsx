import { type NamedPerson, personName } from "@/lib/people/names";

/**
 * A person's name by the one rule (lib/people/names.ts): the display name, and their ENS name after
 * it, quieter, where a linked wallet has one.
 */
export function PersonName({ person, className = "" }: { person: NamedPerson | null | undefined; className?: string }) {
  const { name, secondary } = personName(person);
  return (
    <span className={`inline-flex min-w-0 items-baseline gap-1.5 ${className}`}>
      <span className="truncate">{name}</span>
      {secondary ? <span className="truncate text-xs font-normal text-muted">{secondary}</span> : null}
    </span>
  );
}
