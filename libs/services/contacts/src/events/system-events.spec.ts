import { isReservedEventName } from '@herald/contact-data';
import { SYSTEM_EVENT_NAMES } from './system-events.js';

describe('system event names', () => {
  it.each(SYSTEM_EVENT_NAMES)('%s is refused by /v1/track and by DELETE /events/:name (reserved)', (name) => {
    expect(isReservedEventName(name)).toBe(true);
  });
});
