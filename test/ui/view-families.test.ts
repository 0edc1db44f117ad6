import { describe, expect, it } from 'vitest';
import { EVENT_SCHEMAS } from '../../source/engine/events';
import { VIEW_FAMILIES } from '../../source/ui/view-state';

describe("the view's event families", () => {
  it('decide for every event type, each type in exactly one family (a type in two would be decided twice, the last silently winning)', () => {
    const named = VIEW_FAMILIES.flatMap((family) => Object.keys(family));
    const twice = named.filter((type, i) => named.indexOf(type) !== i);
    expect(twice).toEqual([]);
    expect(named.sort()).toEqual(Object.keys(EVENT_SCHEMAS).sort());
  });
});
