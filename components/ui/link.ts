/**
 * Text links: the accent colour plus an underline, so a link in a sentence is told apart from the
 * words around it without relying on colour (WCAG 1.4.1).
 */
export const linkClasses = "text-accent underline underline-offset-4 decoration-accent/50 hover:decoration-2 hover:decoration-accent";
