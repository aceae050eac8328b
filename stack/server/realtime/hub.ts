/** Which channels are joined to which topic: the stack's stand-in for Phoenix PubSub. */
export interface TopicMember {
  readonly tenantTopic: string;
}

/** Public and private channels of the same name are different topics, as in Realtime. */
export function tenantTopicOf(subTopic: string, isPrivate: boolean): string {
  return `${isPrivate ? "private" : "public"}:${subTopic}`;
}

export class TopicHub<T extends TopicMember> {
  private readonly topics = new Map<string, Set<T>>();

  add(member: T): void {
    let set = this.topics.get(member.tenantTopic);
    if (!set) this.topics.set(member.tenantTopic, (set = new Set()));
    set.add(member);
  }

  remove(member: T): void {
    const set = this.topics.get(member.tenantTopic);
    set?.delete(member);
    if (set?.size === 0) this.topics.delete(member.tenantTopic);
  }

  members(tenantTopic: string): readonly T[] {
    return [...(this.topics.get(tenantTopic) ?? [])];
  }
}
