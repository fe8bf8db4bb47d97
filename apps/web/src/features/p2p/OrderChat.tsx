import { type ContractData, listP2pChatContract, sendP2pChatContract, withdrawP2pChatContract } from '@keel/contracts';
import { contractKey, invalidateContracts } from '@keel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useId, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { z } from 'zod';
import { isSessionError } from '../../shared/api/client.ts';
import { loadFailed, useContractMutation, useContractQuery } from '../../shared/api/queries.ts';
import { uploadImage } from '../../shared/api/upload.ts';
import { useContractForm, useErrorText } from '../../shared/forms/index.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { useFallbackPolling } from '../../shared/realtime/cache-sync.ts';
import { Button, LoadFailedNotice, Notice } from '../../shared/ui/components.tsx';
import { useNow } from '../../shared/ui/useNow.ts';
import { imageFileProblem } from '../verification/image-check.ts';
import { ConfirmAction, Time } from '../wallet/WalletParts.tsx';
import { useSessionImage } from './chat-image.ts';
import { CHAT_FALLBACK_POLL_MS, canWithdrawChat, chatImagePath, chatPath, type P2pChatMessage } from './order-rules.ts';
import { P2pRefusalNotice, type Refused, refusedOf } from './P2pParts.tsx';
import { usePageVisible } from './useOrder.ts';

type ChatAnswer = ContractData<typeof listP2pChatContract>;

const TEXT_MAX = 1000;
/** The composer sends the contract's text (trimmed, no control characters but line breaks, 1 to 1000 characters). */
const composerSchema = z.object({ text: sendP2pChatContract.body!.shape.text.unwrap() });
/** The embedded chat of an order page shows the latest messages; the full screen shows them all. */
const EMBEDDED_LAST = 20;

/**
 * The order's chat as a query (ADR 0026), invalidated by the `p2p.chat` push event
 * (shared/realtime/cache-sync.ts) and polled only while the push connection is down. It runs only
 * while the page is visible: reading the chat marks the other side's messages read.
 */
function useChat(orderId: string) {
  const client = useQueryClient();
  const visible = usePageVisible();
  const input = { params: { orderId } };
  const query = useContractQuery(listP2pChatContract, input, {
    enabled: visible,
    refetchInterval: useFallbackPolling(CHAT_FALLBACK_POLL_MS),
    select: (answer) => answer.items,
  });
  /** Puts a message the server answered into the chat at once (sent, or withdrawn). */
  const put = useCallback(
    (message: P2pChatMessage) =>
      client.setQueryData<ChatAnswer>(contractKey(listP2pChatContract, { params: { orderId } }), (current) => {
        if (!current) return current;
        const known = current.items.some((each) => each.id === message.id);
        return { ...current, items: known ? current.items.map((each) => (each.id === message.id ? message : each)) : [...current.items, message] };
      }),
    [client, orderId],
  );
  return { messages: query.data ?? null, failed: loadFailed(query), reload: () => void query.refetch(), put };
}

function ChatImage({ orderId, messageId }: { orderId: string; messageId: string }) {
  const { t } = useI18n();
  const { url, failed } = useSessionImage(chatImagePath(orderId, messageId));
  if (failed) return <span className="muted">{t('web.p2p.chat.imageFailed')}</span>;
  if (!url) return <span className="chat-image-placeholder muted">{t('web.common.loading')}</span>;
  return (
    <a href={url} target="_blank" rel="noreferrer noopener" className="chat-image-link">
      <img src={url} alt={t('web.p2p.chat.imageAlt')} className="chat-image" data-testid="chat-image" />
    </a>
  );
}

function ChatMessage({
  orderId,
  message,
  now,
  withdrawing,
  onWithdraw,
}: {
  orderId: string;
  message: P2pChatMessage;
  now: number;
  withdrawing: boolean;
  onWithdraw: (message: P2pChatMessage) => void;
}) {
  const { t } = useI18n();
  const mine = message.from === 'me';
  return (
    <li
      className={mine ? 'chat-message chat-mine' : 'chat-message chat-theirs'}
      data-testid={`chat-message-${message.id}`}
      data-from={message.from}
      data-kind={message.kind}
      data-withdrawn={message.withdrawn ? 'true' : 'false'}
    >
      <div className="chat-bubble">
        {message.withdrawn ? (
          <p className="chat-withdrawn" data-testid="chat-withdrawn">
            {mine ? t('web.p2p.chat.withdrawnMine') : t('web.p2p.chat.withdrawnTheirs')}
          </p>
        ) : message.kind === 'image' && message.hasImage ? (
          <ChatImage orderId={orderId} messageId={message.id} />
        ) : (
          // Text stays text: a React text node, never HTML.
          <p className="chat-text" data-testid="chat-text">
            {message.text ?? ''}
          </p>
        )}
      </div>
      <div className="chat-meta">
        <Time iso={message.createdAt} testId="chat-time" />
        {mine && !message.withdrawn && (
          <span className={message.read ? 'chat-read is-read' : 'chat-read'} data-testid="chat-read" data-read={message.read ? 'true' : 'false'}>
            {message.read ? t('web.p2p.chat.read') : t('web.p2p.chat.sent')}
          </span>
        )}
        {canWithdrawChat(message, now) && (
          <ConfirmAction
            label={t('web.p2p.chat.withdraw')}
            question={t('web.p2p.chat.withdrawQuestion')}
            confirmLabel={t('web.p2p.chat.withdrawConfirm')}
            busy={withdrawing}
            variant="secondary"
            onConfirm={() => onWithdraw(message)}
            testId="chat-withdraw"
          />
        )}
      </div>
    </li>
  );
}

/**
 * The chat of one order: messages oldest first, mine on one side and theirs on the other, text
 * always as text, images fetched with the session token, "withdrawn" in place of a withdrawn
 * message, a withdraw action on my messages for their first 10 minutes, and read marks on mine.
 * It is the evidence if the order goes to appeal. Refreshed when a push event says it changed.
 */
export function OrderChat({ orderId, counterparty, embedded = false }: { orderId: string; counterparty?: string; embedded?: boolean }) {
  const { t, tServer } = useI18n();
  const fileId = useId();
  const client = useQueryClient();
  const { messages, failed, reload, put } = useChat(orderId);
  // A sent or withdrawn message shows from the answer at once; the chat is then asked again (read
  // marks, the other side's messages), without the send waiting for it.
  const changed = {
    onSuccess: (message: P2pChatMessage) => {
      put(message);
      void invalidateContracts(client, [listP2pChatContract]);
    },
  };
  const send = useContractMutation(sendP2pChatContract, changed);
  const withdrawMessage = useContractMutation(withdrawP2pChatContract, changed);
  const now = useNow(true, 5_000);
  const composer = useContractForm(composerSchema, { defaultValues: { text: '' } });
  const errorText = useErrorText();
  const typed = composer.watch('text');
  // An empty message is not sent (the button waits for text), so only a text's own problem is said.
  const textError = typed.trim() === '' ? undefined : errorText(composer.formState.errors.text);
  const [sending, setSending] = useState(false);
  const [withdrawing, setWithdrawing] = useState<string | null>(null);
  const [refused, setRefused] = useState<Refused | null>(null);
  const [imageProblem, setImageProblem] = useState<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const lastCount = useRef(0);

  const shown = messages ? (embedded ? messages.slice(-EMBEDDED_LAST) : messages) : null;

  // Keep the newest message in view when one arrives (inside the chat's own scroll area only).
  useLayoutEffect(() => {
    const count = messages?.length ?? 0;
    if (count > lastCount.current && listRef.current) listRef.current.scrollTop = listRef.current.scrollHeight;
    lastCount.current = count;
  }, [messages]);

  const sendText = composer.handleSubmit(async (body) => {
    if (sending) return;
    setSending(true);
    setRefused(null);
    try {
      await send.mutateAsync({ params: { orderId }, body });
      composer.reset({ text: '' });
    } catch (error) {
      if (!isSessionError(error)) setRefused(refusedOf(error));
    } finally {
      setSending(false);
    }
  });

  async function sendImage(file: File | undefined) {
    if (!file) return;
    setImageProblem(null);
    setRefused(null);
    const problem = await imageFileProblem(file);
    if (problem) {
      setImageProblem(problem === 'size' ? tServer('file size mismatch') : tServer('wrong image format'));
      return;
    }
    setSending(true);
    try {
      const upload = await uploadImage(file, { purpose: 'chat' });
      await send.mutateAsync({ params: { orderId }, body: { uploadId: upload.uploadId } });
    } catch (error) {
      if (!isSessionError(error)) setRefused(refusedOf(error));
    } finally {
      setSending(false);
    }
  }

  async function withdraw(message: P2pChatMessage) {
    setWithdrawing(message.id);
    setRefused(null);
    try {
      await withdrawMessage.mutateAsync({ params: { orderId, messageId: message.id } });
    } catch (error) {
      if (!isSessionError(error)) setRefused(refusedOf(error));
      // The message may have been withdrawn meanwhile, or its window closed: show it as it is.
      reload();
    } finally {
      setWithdrawing(null);
    }
  }

  return (
    <section className={embedded ? 'card chat chat-embedded' : 'card chat chat-full'} data-testid="order-chat" aria-label={t('web.p2p.chat.title')}>
      <div className="wallet-row-head">
        <h2 className="card-title">{counterparty ? t('web.p2p.chat.with', { name: counterparty }) : t('web.p2p.chat.title')}</h2>
        {embedded && (
          <Link to={chatPath(orderId)} className="btn btn-ghost btn-small" data-testid="order-open-chat">
            {t('web.p2p.chat.openFull')}
          </Link>
        )}
      </div>
      <p className="field-hint" data-testid="chat-note">
        {t('web.p2p.chat.note')}
      </p>
      {failed && <LoadFailedNotice onRetry={reload} />}
      {refused && <P2pRefusalNotice refused={refused} testId="chat-error" />}
      {shown === null ? (
        <p className="muted">{t('web.common.loading')}</p>
      ) : shown.length === 0 ? (
        <p className="muted" data-testid="chat-empty">
          {t('web.p2p.chat.empty')}
        </p>
      ) : (
        <ol className="chat-messages" ref={listRef} data-testid="chat-messages" aria-live="polite">
          {embedded && messages && messages.length > shown.length && (
            <li className="chat-earlier">
              <Link to={chatPath(orderId)} data-testid="chat-earlier">
                {t('web.p2p.chat.earlier', { count: messages.length - shown.length })}
              </Link>
            </li>
          )}
          {shown.map((message) => (
            <ChatMessage
              key={message.id}
              orderId={orderId}
              message={message}
              now={now}
              withdrawing={withdrawing === message.id}
              onWithdraw={(each) => void withdraw(each)}
            />
          ))}
        </ol>
      )}
      {imageProblem && (
        <Notice tone="error" testId="chat-image-problem">
          {imageProblem}
        </Notice>
      )}
      <form className="chat-form" onSubmit={sendText} noValidate data-testid="chat-form">
        <label className="visually-hidden" htmlFor={`${fileId}-text`}>
          {t('web.p2p.chat.input')}
        </label>
        <textarea
          id={`${fileId}-text`}
          className="chat-input"
          rows={2}
          maxLength={TEXT_MAX}
          placeholder={t('web.p2p.chat.placeholder')}
          data-testid="chat-input"
          aria-invalid={textError ? true : undefined}
          aria-describedby={textError ? `${fileId}-text-error` : undefined}
          {...composer.register('text')}
          onKeyDown={(event) => {
            // Enter sends; Shift+Enter starts a new line (and an IME composition is left alone).
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              if (event.currentTarget.value.trim() !== '') event.currentTarget.form?.requestSubmit();
            }
          }}
        />
        {textError && (
          <p className="field-error" id={`${fileId}-text-error`} role="alert" data-testid="chat-input-error">
            {textError}
          </p>
        )}
        <div className="chat-form-actions">
          <label className="btn btn-ghost btn-small chat-attach" htmlFor={`${fileId}-file`} data-testid="chat-attach">
            {t('web.p2p.chat.attach')}
          </label>
          <input
            id={`${fileId}-file`}
            type="file"
            accept="image/jpeg,image/png,image/gif"
            className="visually-hidden"
            data-testid="chat-image-input"
            disabled={sending}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              void sendImage(file);
            }}
          />
          <Button type="submit" className="btn-small" busy={sending} disabled={typed.trim() === ''} data-testid="chat-send">
            {t('web.p2p.chat.send')}
          </Button>
        </div>
      </form>
    </section>
  );
}
