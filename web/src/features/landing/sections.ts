// The landing page's in-page sections. Nav buttons and anchors use these ids, so they are declared once.

export const SECTIONS = [
  { id: 'home', label: 'Home' },
  { id: 'features', label: 'Features' },
  { id: 'pricing', label: 'Pricing' },
  { id: 'about', label: 'About' },
  { id: 'contact', label: 'Contact' },
] as const;

export type SectionId = (typeof SECTIONS)[number]['id'];

/** Smoothly scrolls the page to a landing section; does nothing if the section is not mounted. */
export function scrollToSection(id: SectionId): void {
  document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}
