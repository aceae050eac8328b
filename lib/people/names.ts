/**
 * One name per person, everywhere (PRODUCT.md: people are shown by their ENS name where they have
 * one; DESIGN.md: a person is one name): their display name first, and the ENS name of a linked
 * wallet as a second, quieter line — the header, comments, presence and the listening page all go
 * by this rule.
 */
export interface NamedPerson {
  display_name: string | null | undefined;
  /** The ENS name of their linked wallet, where it has one. */
  ens_name?: string | null;
  username?: string | null;
}

export interface PersonName {
  /** What they are called: the display name (else @username, else "Someone"). */
  name: string;
  /** The ENS name, when linked and not the same as the name. */
  secondary: string | null;
}

export function personName(person: NamedPerson | null | undefined): PersonName {
  const name = person?.display_name?.trim() || (person?.username ? `@${person.username}` : "Someone");
  const ens = person?.ens_name?.trim() || null;
  return { name, secondary: ens && ens.toLowerCase() !== name.toLowerCase() ? ens : null };
}
