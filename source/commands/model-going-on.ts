import type { EventOf } from '../engine/events';
import type { ModelFlags } from '../engine/model/create-model';
import type { SessionState } from '../engine/session/fold';

/** What `tenet resume` and `tenet fork` are asked for the model: each flag, when given. */
export type AskedModel = Pick<ModelFlags, 'provider' | 'model' | 'baseUrl' | 'contextWindow'>;

/**
 * The model a recorded session goes on with (`tenet resume`, `tenet fork`): the provider asked
 * for, else the one in force (`inForce`: the recorded settings, or the latest a resume chose). A
 * model name or base URL of one provider means nothing to another: they carry over only while the
 * provider stays; the recorded context window carries over only while the model does. The script
 * of a scripted model is each command's own (`scripted`, `same`: whether the provider is the
 * scripted one, and the one in force).
 */
export function modelGoingOn(
  start: EventOf<'session.start'>,
  inForce: SessionState['settings'],
  asked: AskedModel,
): { flags: ModelFlags & { provider: string }; scripted: boolean; same: boolean } {
  const latest = inForce ?? { provider: start.provider, model: start.model };
  const provider = asked.provider ?? latest.provider;
  const scripted = provider === 'scripted';
  const same = provider === latest.provider;
  const model = asked.model ?? (scripted || !same ? undefined : latest.model);
  const baseUrl = asked.baseUrl ?? (same ? latest.baseUrl : undefined);
  const recordedWindow =
    typeof start.config.contextWindow === 'number' && (model ?? (scripted ? 'scripted' : undefined)) === start.model
      ? start.config.contextWindow
      : undefined;
  const contextWindow = asked.contextWindow ?? recordedWindow;
  return {
    flags: {
      provider,
      ...(model ? { model } : {}),
      ...(baseUrl ? { baseUrl } : {}),
      ...(contextWindow ? { contextWindow } : {}),
    },
    scripted,
    same,
  };
}
