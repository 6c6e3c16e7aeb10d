/**
 * A request no migratable handler runs, or one also reached where no request is served (a timer, a
 * notification handler, a lifecycle callback): marked with what runs it and what to do, or said in a note.
 */
import type { NotAHandler } from '../../find/reach.js';
import type { SiteShape } from '../../report.js';
import type { FoundCause } from '../../tables/causes.js';
import { FRAMEWORK_HELPER_CALL_CAUSE, FRAMEWORK_HELPER_CAUSE } from '../../tables/frameworks.js';
import { baseClassHelper } from '../frameworks.js';
import { describeNonHandler, type NonHandler } from '../nonHandlers.js';
import { callText, type Recorder } from '../recorder.js';
import type { Site } from '../sites.js';

/**
 * A request a handler asks, reached also where no request is served (a timer, a notification handler): there
 * it still sends the request to the client, which a 2026-07-28 client cannot answer. Marked where that
 * context reaches it; where what reaches it cannot be followed, said in a note.
 */
export function markOtherCaller(site: Site, other: NotAHandler, r: Recorder): void {
  const at = other.at ?? site.node;
  const what = `reaches ${callText(site.node)}, ${/^[aeiou]/.test(site.kind) ? 'an' : 'a'} ${site.kind} request, ${other.detail}`;
  if (!other.outside) {
    r.note(at, `${what}: there it still sends the request to the client itself, which only a 2025-era client answers`);
    return;
  }
  const reason = `${what}: no request is served there, so on MCP 2026-07-28 it cannot be asked (2025-era clients only): ${redesign(other.kind)}`;
  r.site(at, {
    kind: site.kind,
    call: callText(at),
    outcome: 'marked',
    reason,
    handler: other.kind,
    shape: 'helper',
    cause: {
      id: other.kind === 'notification' ? 'helper-called-from-notification' : 'helper-called-outside-handler',
      text: `a request reached ${NON_HANDLER_CAUSE[other.kind].text}`,
    },
  });
}

/** A request no migratable handler runs: marked with what runs it instead, and what to do. */
export function markUnreached(site: Site, others: NotAHandler[], r: Recorder, shape: SiteShape): void {
  const other = others[0] ?? describeNonHandler(site.fn, site.node);
  const base = other.kind === 'helper' && site.fn ? baseClassHelper(site.fn, site.kind) : undefined;
  if (base) {
    for (const call of base.calls)
      r.site(call.node, {
        kind: site.kind,
        call: callText(call.node),
        outcome: 'marked',
        reason: call.reason,
        handler: base.name,
        shape: 'helper',
        cause: { id: 'framework-helper-call', text: FRAMEWORK_HELPER_CALL_CAUSE },
      });
    r.site(site.node, {
      kind: site.kind,
      call: callText(site.node),
      outcome: 'marked',
      reason: base.reason,
      handler: base.name,
      shape,
      cause: { id: 'framework-helper', text: FRAMEWORK_HELPER_CAUSE },
    });
    return;
  }
  const reason = `${site.kind} request ${other.detail}: ${other.fate ?? redesign(other.kind)}`;
  r.site(site.node, {
    kind: site.kind,
    call: callText(site.node),
    outcome: 'marked',
    reason,
    handler: other.kind,
    shape,
    cause: NON_HANDLER_CAUSE[other.kind],
  });
}

/** The cause the summary counts a site outside a migratable handler under. */
const NON_HANDLER_CAUSE: Record<NonHandler['kind'], FoundCause> = {
  helper: { id: 'helper-body', text: 'in a function no tools/call, prompts/get or resources/read handler calls' },
  'shared-handler': { id: 'shared-handler', text: 'in a handler passed by name that is also called or exported' },
  'wrapped-handler': { id: 'handler-wrapped-by-call', text: 'in a handler wrapped by a function of the project before it is registered' },
  generator: { id: 'generator', text: 'in a generator no handler runs' },
  'other-request': { id: 'other-request-handler', text: 'in a request handler other than tools/call, prompts/get or resources/read' },
  notification: { id: 'notification-handler', text: 'in a notification handler' },
  lifecycle: { id: 'lifecycle-callback', text: 'in a lifecycle callback (oninitialized, onclose, onerror)' },
  callback: { id: 'callback', text: 'in a callback run later, or passed on where it cannot be followed' },
  wrapped: { id: 'wrapped-handler', text: "in a callback registered through something other than the SDK's registration" },
  'class-member': { id: 'class-member', text: 'in a getter, setter, constructor or static block of a class' },
  'top-level': { id: 'module-level', text: 'at module level' },
};

function redesign(kind: string): string {
  switch (kind) {
    case 'lifecycle':
    case 'notification':
      return 'MCP 2026-07-28 has no server-initiated requests outside tools/call, prompts/get and resources/read; ask from inside the tool that needs it, or read it lazily there';
    case 'other-request':
      return 'only tools/call, prompts/get and resources/read can return input_required; move the request into one of those';
    case 'callback':
      return 'what runs it cannot be followed to a handler (a timer, an event, a value handed on); await it in the handler, or call it from one';
    case 'class-member':
      return 'a property read, an assignment or a `new` cannot return input_required, so it is left as it is; make it a method the handler awaits, or migrate by hand';
    default:
      return 'only a tools/call, prompts/get or resources/read handler can ask the client on MCP 2026-07-28 (it returns input_required); call it from one, or take what it asks for as an argument';
  }
}
