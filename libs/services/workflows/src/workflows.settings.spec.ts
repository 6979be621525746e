import { loadConfig } from '@herald/core';
import { WorkflowsSettings } from './workflows.settings.js';

describe('workflows settings', () => {
  it('RENDER_THREADS defaults to one render thread, takes 0 (render on the event loop) to 16, and refuses anything else by name', () => {
    expect(loadConfig(WorkflowsSettings, {}).RENDER_THREADS).toBe(1);
    expect(loadConfig(WorkflowsSettings, { RENDER_THREADS: '0' }).RENDER_THREADS).toBe(0);
    expect(loadConfig(WorkflowsSettings, { RENDER_THREADS: '16' }).RENDER_THREADS).toBe(16);
    for (const bad of ['17', '-1', 'two'])
      expect(() => loadConfig(WorkflowsSettings, { RENDER_THREADS: bad })).toThrow(/RENDER_THREADS/);
  });
});
