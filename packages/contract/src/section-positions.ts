// Where an attempt's sections lie among its positions: served in order, each from the position after the previous
// one's questions (decision 034). Free of zod, so the quiz page reads it without the schemas.

/** A section as served to an attempt, from its first position (0-based). */
export interface SectionPlace {
  name: string;
  firstPosition: number;
  questionCount: number;
}

/** An attempt's sections with the position each starts from (empty: no sections). */
export function sectionPlaces(sections: readonly { name: string; questionCount: number }[] | null): SectionPlace[] {
  let next = 0;
  return (sections ?? []).map(({ name, questionCount }) => {
    next += questionCount;
    return { name, firstPosition: next - questionCount, questionCount };
  });
}

/** The section holding `position` (0-based), with its number and how many there are; undefined without sections. */
export function sectionAtPosition(places: readonly SectionPlace[], position: number) {
  const index = places.findLastIndex((place) => place.firstPosition <= position);
  const place = places[index];
  return place && { ...place, number: index + 1, of: places.length };
}
