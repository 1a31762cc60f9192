/**
 * Generated from client/openapi.json by openapi-typescript (npm run client). Do not edit.
 */

export interface paths {
    "/stream/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a stream (or update the webhooks of an existing one)
         * @description Calls `webhook` for every transaction that touches the address (sender, recipient, or party of an ERC-20/721/1155 Transfer or Approval), once unconfirmed and once confirmed. Creating the same address again updates it.
         */
        post: operations["streamCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stream/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a stream
         * @description Stops the stream. An address this key does not stream gets error 5003. Events already on their way are not sent.
         */
        delete: operations["streamDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stream/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List this key's streamed addresses */
        get: operations["streamList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/wallet/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Transactions of a wallet on every indexed EVM network, newest first
         * @description Every transaction that touches the address (sender, recipient, created contract, or party of a token Transfer/Approval) on every EVM network this appliance indexes, from the indexed history (from each network's start block, or older where a backfill added it; the X-Tollgate-History header says how far each reaches). Ordered by block time, newest first.
         */
        get: operations["walletTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/wallet/nfts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the NFTs a wallet holds now, on every indexed EVM network
         * @description ERC-721 and ERC-1155 tokens the address holds (received minus sent, over the transfers indexed since each network's start block), on every EVM network this appliance indexes, in one answer ordered by network, contract and token id. Metadata is fetched by the worker (tokenURI/uri, then http(s), ipfs:// through the configured gateway, or data:). An answer that asks for metadata not fetched yet (the first look at a wallet, refresh=true) waits up to 2 s for it; an item whose metadata is still on its way then, or cannot be fetched, is listed with empty strings for the metadata fields and says so in metadata_status, and the answer carries X-Tollgate-Metadata-Pending and Cache-Control: no-store. A failed fetch is tried again on a later request after 30 minutes; refresh=true asks again now.
         */
        get: operations["walletNfts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analyze/aml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * AML analysis of an address: risk score and every AML tag
         * @description Score 0–100 where **100 is the highest risk** (one scale everywhere). Each true tag risks min(1, weight(tag)/100 × factor(level)), level = base, direct_ (one hop) or indirect_ (two hops); score = round(100 × (1 − Π(1 − risk))). Weights, factors and thresholds are configuration (`aml`). Base tags come from labels (every network); direct_/indirect_ exposure, new_wallet and number_of_malicious_contracts_created need chain data, so they can be true only on networks this appliance indexes. `webhook` also starts live AML tracking of the address (EVM and Bitcoin-family only).
         */
        get: operations["analyzeAml"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analyze/tx_detail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A transaction with its token transfers and AML data
         * @description EVM: from the index, else from the network's node (for transactions older than the start block). Bitcoin-family: from the index, else from the node (it needs -txindex); `from` is the first input's address, `to` the first output not paying back to an input, `value` what left the senders, one transfer per output. aml_data is that of the transaction's parties: the union of their true tags and the highest of their scores. Score 0–100 where **100 is the highest risk** (one scale everywhere). Each true tag risks min(1, weight(tag)/100 × factor(level)), level = base, direct_ (one hop) or indirect_ (two hops); score = round(100 × (1 − Π(1 − risk))). Weights, factors and thresholds are configuration (`aml`). A malformed hash, or a transaction neither the index nor the node has, gets 5002; a network this appliance does not index, 5000.
         */
        get: operations["analyzeTxDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/liveaml/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Track an address for live AML (or update its webhooks)
         * @description Calls `webhook` when the address takes part in a risky transaction. `stream_webhook` also creates the stream for the address. Creating the same address again updates the webhooks; a stream that exists is kept when `stream_webhook` is not given.
         */
        post: operations["liveamlCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/liveaml/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Stop live AML tracking of an address
         * @description The stream of the address, if any, is kept. An address this key does not track gets error 5003. Events already recorded stay listed.
         */
        delete: operations["liveamlDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/liveaml/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List this key's tracked addresses */
        get: operations["liveamlList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/liveaml/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the live AML events of this key's tracked addresses, newest first
         * @description Events of transactions in blocks later reorganised away are not listed. Events stay listed after the tracking is deleted.
         */
        get: operations["liveamlEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/travelrule/create_tx": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a withdrawal travel rule transaction (PENDING for the operators)
         * @description Validates the IVMS101 data (an error names the failing path, e.g. originator.persons[0].naturalPerson.dateAndPlaceOfBirth.dateOfBirth), screens every wallet address of both parties with the AML engine, stores the record (personal data encrypted) and queues it for the operators. transaction_ref is unique per API key. beneficiary_vasp_id, when given, must be a uid of list_vasps. When transaction_network is omitted it is derived from the wallet addresses. Statuses and moves: see the README (Travel Rule). The caller learns of later moves by its travel rule webhook (POST /travelrule/webhook).
         */
        post: operations["travelruleCreateTx"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/travelrule/check_tx": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a withdrawal as create_tx would, storing nothing
         * @description The completeness check: the same body as create_tx, every rule create_tx applies (IVMS101, addresses, the beneficiary VASP, a transaction_ref new for this key) and the screening of both parties, with the threshold notes. Nothing is stored, queued or sent; the same body then given to create_tx is accepted unless something changed meanwhile (a label, the directory, another transaction with the reference). An addition to the spec.
         */
        post: operations["travelruleCheckTx"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/travelrule/travel_address": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A Travel Address for one of your customers' deposit addresses
         * @description Not in the spec. The TRP 3.1 Travel Address (ta…) of a customer's deposit address: give it to the customer, who gives it to the sending VASP. An inquiry that arrives on it belongs to this key, its beneficiary account is that address, and it follows the deposit flow (PENDING for the operators, then the WAITING_ADDRESS_DATA webhook). The same key, network and address always give the same Travel Address. 5002 for an address not valid on the network.
         */
        post: operations["travelruleTravelAddress"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/travelrule/tx_status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A transaction's status and history, by transaction_ref
         * @description Where a transaction of this key stands: its status, each status it took (who moved it: api_key, operator, counterparty or system) and how its messages to the other VASP fared (attempts, the other side's last HTTP status and error). No personal data, and not the operators' reasons (internal to the compliance team); what the other VASP said when it rejected or cancelled is counterparty_reason. For a withdrawal, beneficiary_address is the address the beneficiary VASP approved (pay to it), and beneficiary_address_differs says whether it is another than the beneficiary accountNumber of create_tx. 5003 when this key has no transaction with the reference. An addition to the spec.
         */
        get: operations["travelruleTxStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/travelrule/send_tx_hash": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send the on-chain hash of an approved withdrawal
         * @description Taken once the beneficiary VASP approved (the OTHER_VASP_APPROVED webhook; status WAITING_TX_HASH). The hash goes to the beneficiary VASP (TRP confirmation, or e-mail). The hash must have its network's format (EVM: 0x and 64 hex digits; Bitcoin family: 64 hex digits). The same hash again (a retry after a lost answer, even at once) is answered OK and changes nothing; another hash is refused.
         */
        post: operations["travelruleSendTxHash"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/travelrule/list_vasps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the VASPs of the directory
         * @description The directory is seeded from config/vasps.json and managed with `tollgate vasps`. `page` defaults to 1 and `limit` to 50 (1 to 100); ordered by name.
         */
        get: operations["travelruleListVasps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/travelrule/send_address": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send the deposit address for an incoming transfer
         * @description Answers the WAITING_ADDRESS_DATA webhook: the wallet address of the beneficiary (your customer) for a deposit that came over the protocol and an operator accepted. The originator VASP then gets the approval with this address. The same address again (a retry after a lost answer, even at once) is answered OK and changes nothing; another address is refused.
         */
        post: operations["travelruleSendAddress"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/travelrule/receive_tx_without_protocol": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record a deposit whose originator VASP has no travel rule protocol (APPROVED)
         * @description The same input as create_tx plus transaction_hash and created_at (ISO 8601), without beneficiary_vasp_id. The record is screened and listed for the operators; its status is APPROVED (final).
         */
        post: operations["travelruleReceiveTxWithoutProtocol"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/travelrule/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This key's travel rule webhook
         * @description `source` is "key" for a URL registered by this key, "default" for the configured default, null when there is none.
         */
        get: operations["getTravelruleWebhook"];
        put?: never;
        /**
         * Register this key's travel rule webhook
         * @description Not in the spec. The URL (https: the webhooks carry personal data) receives the travel rule webhooks (OTHER_VASP_APPROVED, OTHER_VASP_REJECTED, WAITING_ADDRESS_DATA, TRANSACTION_CONFIRMED), signed like the stream webhooks with the key's webhook secret. Without one, the configured default (travel_rule.webhook_url) is used; with neither, webhooks wait (retried with backoff) until one is registered.
         */
        post: operations["postTravelruleWebhook"];
        /** Remove this key's travel rule webhook (the configured default applies again) */
        delete: operations["deleteTravelruleWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List this key's webhook delivery attempts (the delivery log)
         * @description Not in the spec. Every attempt to deliver one of this key's webhooks (stream, live AML, travel rule, test), newest first: when, where, the HTTP status, the latency, the error, and the first bytes of the receiver's answer (`response`, at most 1 KiB; null when there was no answer, and for travel rule webhooks, whose bodies may hold persons). Filters: `address`, `kind` (stream, aml, travelrule, test), `event_id` (the event's id or its webhook-id `msg_…`), `status` (succeeded: a 2xx; failed: anything else) and `since` (ISO 8601). Attempts recorded before this version are not listed.
         */
        get: operations["webhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send one webhook event again
         * @description Not in the spec. Queues one of this key's events for delivery again, now: a given-up one (with a new allowance of attempts) or a delivered one. It keeps its webhook-id, its body byte for byte and its `sequence`, so a receiver that deduplicates sees one message. A pending event (already on its way) and a cancelled one (its subscription removed, its transaction reorganised away) get 5000; an id this key does not have, 5003.
         */
        post: operations["webhookRedeliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send again every webhook event given up since a time
         * @description Not in the spec. Queues again this key's events given up (attempts used up, or refused by the receiver) at or after `since`, optionally of one `address` and one `kind`, each with a new allowance of attempts, due in the order they were written; delivered and pending events are not touched. At most 10,000 per call: `more` says whether some are left (call again with the same `since`).
         */
        post: operations["webhookRecover"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a signed test webhook
         * @description Not in the spec. Queues a test webhook, signed with this key's secret exactly like every webhook (both secrets during a rotation's overlap), to the receiver of a subscription (`address`, and `kind` stream or aml when the address has both; default the stream), to the key's travel rule webhook (`kind` travelrule alone), or to any `url` (checked like a stream webhook). Its body is marked `"test": true` and carries no event (the `test` webhook). It is sent once, at once, also while the subscription is paused or its endpoint disabled, and never counts as an endpoint's failure; its attempt is in GET /webhook/deliveries (`event_id`).
         */
        post: operations["webhookTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stream/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a stream
         * @description Not in the spec. The stream's events are still written (and numbered by `sequence`) while it is paused, and kept: nothing is sent until it is resumed. Events already on their way are not called back. Pausing again changes nothing. An address this key has no stream for gets 5003.
         */
        post: operations["streamPause"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stream/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a paused stream
         * @description Not in the spec. The events kept while the stream was paused are due at once, in the order they were written, under the ordering rules of every webhook (README, "What you can rely on"); `released` says how many. Resuming one not paused changes nothing. An address this key has no stream for gets 5003.
         */
        post: operations["streamResume"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/liveaml/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a live AML tracking
         * @description Not in the spec. The live AML tracking's events are still written (and numbered by `sequence`) while it is paused, and kept: nothing is sent until it is resumed. Events already on their way are not called back. Pausing again changes nothing. An address this key has no live AML tracking for gets 5003.
         */
        post: operations["liveamlPause"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/liveaml/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a paused live AML tracking
         * @description Not in the spec. The events kept while the live AML tracking was paused are due at once, in the order they were written, under the ordering rules of every webhook (README, "What you can rely on"); `released` says how many. Resuming one not paused changes nothing. An address this key has no live AML tracking for gets 5003.
         */
        post: operations["liveamlResume"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/rotate_secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate this key's webhook signing secret
         * @description Not in the spec. A new `whsec_` secret signs every webhook of this key from now on; shown in this answer only (store it). The secret it replaces keeps signing beside it for `overlap_hours` (default 24, 0 to 168, fractions allowed): meanwhile `webhook-signature` carries two signatures, `v1,<new> v1,<old>`, and a receiver verifying with either secret accepts the webhook (Standard Webhooks libraries try each). After `previous_expires_at` only the new one signs. A rotation during an overlap ends it: only the secret it replaces signs beside the new one. With 0, `previous_expires_at` is null.
         */
        post: operations["webhookRotateSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List this key's webhook endpoints and their state
         * @description Not in the spec. Each URL this key's streams, live AML trackings and travel rule webhook name, with its state: `active`; `failing` (no 2xx since `failing_since`); `disabled` (no 2xx for longer than the operator allows, `TOLLGATE_WEBHOOK_DISABLE_AFTER_HOURS`, default 120: its events are kept, pending, and not sent until it is enabled again with POST /webhook/endpoints/enable). `last_*` describe the last attempt (refreshed at most once a minute while nothing changes); `pending_events` counts the events waiting for it (due, backing off, or kept).
         */
        get: operations["webhookEndpoints"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/endpoints/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable a disabled webhook endpoint again
         * @description Not in the spec. Enables one of this key's endpoints (`url`, exactly as GET /webhook/endpoints lists it): its failing spell is forgotten, and the events kept for it are due at once, in the order they were written, with their backoff forgotten; `released` says how many. An endpoint that is not disabled is left enabled (a failing one starts afresh). A URL that is not an endpoint of this key gets 5003.
         */
        post: operations["webhookEndpointsEnable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    streamEvm: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stream webhook (EVM chains)
         * @description Sent to the `webhook` of POST /v2/stream/create (or the `stream_webhook` of /v2/liveaml/create) for every transaction on an EVM chain (eth, bsc, polygon, avalanche, arb, op) that touches the streamed address: as sender, recipient, created contract, or party of an ERC-20/721/1155 Transfer, TransferSingle, TransferBatch, Approval or ApprovalForAll log. Sent twice, each under its own `webhook-id`: with `confirmed: false` when the block is indexed, and with `confirmed: true` once it has the network's confirmations (README, "Nodes: what Tollgate needs of them": eth 12, bsc 15, polygon 128, …). A transaction touching several streamed addresses is sent once per address (`tx.address`). If the block is reorganised away, no confirmed delivery follows and what may have reached you is retracted (the `retraction` webhook).
         *
         *     Signed per [Standard Webhooks](https://www.standardwebhooks.com) with the API key’s `whsec_` secret (README, "Delivery and signatures"). Answer 2xx within 10 s (`TOLLGATE_WEBHOOK_TIMEOUT_MS`). A 5xx, 408, 429, timeout or network error is retried with exponential backoff (about 3 s, 7 s, 20 s, … capped at about 6 hours) up to 25 attempts (`TOLLGATE_WEBHOOK_MAX_ATTEMPTS`), then given up and listed for the operators, who can redeliver it; a 3xx (redirects are not followed) or another 4xx is not retried. At least once: a repeat carries the same `webhook-id` and the same bytes, so deduplicate on `webhook-id`. Order: for one subscription and one transaction, the unconfirmed delivery is settled before the confirmed one is sent, and a retraction comes after both; different transactions may arrive in any order, so order by `sequence` (README, "What you can rely on").
         *
         *     Chain integers (`value`, `gas`, `gasPrice`, `tokenID`, `tokenValue`, token `value`) are exact JSON numbers that may exceed 2^53 (README, "Stream webhooks").
         */
        post: operations["streamEvmWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    streamBitcoin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stream webhook (Bitcoin-family chains)
         * @description Sent to the stream `webhook` for every transaction on bitcoin, litecoin or doge that pays or spends a coin of the streamed address, in the spec's Bitcoin shape with extra top-level fields (`address`, `confirmed`, `network`, `blockNumber`, `blockHash`). Sent unconfirmed when the block is indexed and again confirmed after the network's confirmations (bitcoin 6, litecoin 6, doge 40), each under its own `webhook-id`; one delivery per streamed address the transaction touches. A reorg cancels what was not sent and retracts what may have been (the `retraction` webhook).
         *
         *     Signed per [Standard Webhooks](https://www.standardwebhooks.com) with the API key’s `whsec_` secret (README, "Delivery and signatures"). Answer 2xx within 10 s (`TOLLGATE_WEBHOOK_TIMEOUT_MS`). A 5xx, 408, 429, timeout or network error is retried with exponential backoff (about 3 s, 7 s, 20 s, … capped at about 6 hours) up to 25 attempts (`TOLLGATE_WEBHOOK_MAX_ATTEMPTS`), then given up and listed for the operators, who can redeliver it; a 3xx (redirects are not followed) or another 4xx is not retried. At least once: a repeat carries the same `webhook-id` and the same bytes, so deduplicate on `webhook-id`. Order: for one subscription and one transaction, the unconfirmed delivery is settled before the confirmed one is sent, and a retraction comes after both; different transactions may arrive in any order, so order by `sequence` (README, "What you can rely on").
         *
         *     Amounts are integers in the smallest unit (satoshi, litoshi, koinu), exact JSON numbers; a coinbase input has `coin: null`; `address` is null for a script that pays no single address (README, "Bitcoin-family chains").
         */
        post: operations["streamBitcoinWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    liveAml: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Live AML webhook
         * @description Sent to the `webhook` of POST /v2/liveaml/create (or the `aml_webhook` of /v2/stream/create) when a transaction of a tracked address (EVM or Bitcoin-family) brings a risk tag: a counterparty labelled X gives `direct_X`, a counterparty of a counterparty `indirect_X`. Also sent, with `hash: ""` and `block_number: 0`, when a label import makes new risk tags true for a tracked address. Sent once, when the block is indexed: no `confirmed` field and no confirmed copy. The same alert is listed by GET /v2/liveaml/events. A delivered alert of a transaction whose block is reorganised away is retracted (the `retraction` webhook).
         *
         *     Signed per [Standard Webhooks](https://www.standardwebhooks.com) with the API key’s `whsec_` secret (README, "Delivery and signatures"). Answer 2xx within 10 s (`TOLLGATE_WEBHOOK_TIMEOUT_MS`). A 5xx, 408, 429, timeout or network error is retried with exponential backoff (about 3 s, 7 s, 20 s, … capped at about 6 hours) up to 25 attempts (`TOLLGATE_WEBHOOK_MAX_ATTEMPTS`), then given up and listed for the operators, who can redeliver it; a 3xx (redirects are not followed) or another 4xx is not retried. At least once: a repeat carries the same `webhook-id` and the same bytes, so deduplicate on `webhook-id`. Order: for one subscription and one transaction, the unconfirmed delivery is settled before the confirmed one is sent, and a retraction comes after both; different transactions may arrive in any order, so order by `sequence` (README, "What you can rely on").
         *
         *     See README, "Live AML webhooks".
         */
        post: operations["liveAmlWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    travelRule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Travel rule webhook
         * @description Sent to the key's travel rule webhook (POST /v2/travelrule/webhook, else the configured `TOLLGATE_TRAVEL_RULE_WEBHOOK_URL`; https only) when a transfer needs the backend or changes on the other VASP's side:
         *
         *     - `OTHER_VASP_APPROVED` (with `beneficiary_address` and `beneficiary_address_differs`): the beneficiary VASP approved a withdrawal; pay out to `beneficiary_address` and call POST /v2/travelrule/send_tx_hash.
         *     - `OTHER_VASP_REJECTED`: it rejected or cancelled it, or could not be reached; informational.
         *     - `WAITING_ADDRESS_DATA` (with `persons` and `accountNumber`): an operator accepted a deposit announced over TRP; find the customer and call POST /v2/travelrule/send_address.
         *     - `TRANSACTION_CONFIRMED` (with `txid`): the originator VASP confirmed the deposit with its transaction hash.
         *
         *     Signed per [Standard Webhooks](https://www.standardwebhooks.com) with the API key’s `whsec_` secret (README, "Delivery and signatures"). Answer 2xx within 10 s (`TOLLGATE_WEBHOOK_TIMEOUT_MS`). A 5xx, 408, 429, timeout or network error is retried with exponential backoff (about 3 s, 7 s, 20 s, … capped at about 6 hours) up to 25 attempts (`TOLLGATE_WEBHOOK_MAX_ATTEMPTS`), then given up and listed for the operators, who can redeliver it; a 3xx (redirects are not followed) or another 4xx is not retried. At least once: a repeat carries the same `webhook-id` and the same bytes, so deduplicate on `webhook-id`. No `sequence`. With no receiver registered the webhook waits (retried) until one is. The body may carry personal data: it is never stored in clear, and rebuilt identically at each attempt (README, "Travel Rule").
         */
        post: operations["travelRuleWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    retraction: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retraction after a reorg
         * @description Sent when a reorg removes the block of a transaction whose stream webhook (EVM or Bitcoin-family) or live AML webhook may have reached you: it was delivered, or a POST of it went out whole and got no answer. The body is the retracted one, byte for byte, with `"removed": true` right after `sequence` and `confirmed` false (a live AML body has no `confirmed`), under a `webhook-id` and a `sequence` of its own, sent to the same URL after the events it retracts are settled. One per subscription, transaction and block (each time the block is removed); the retraction of something you never got is safe to ignore. If the transaction is mined again, it is delivered again with its new block; if the chain goes back to the removed block, its transactions are delivered again after their retraction, under new webhook-ids and higher sequences (the latest sequence of a transaction and block is its state). Travel rule webhooks are never retracted.
         *
         *     Signed per [Standard Webhooks](https://www.standardwebhooks.com) with the API key’s `whsec_` secret (README, "Delivery and signatures"). Answer 2xx within 10 s (`TOLLGATE_WEBHOOK_TIMEOUT_MS`). A 5xx, 408, 429, timeout or network error is retried with exponential backoff (about 3 s, 7 s, 20 s, … capped at about 6 hours) up to 25 attempts (`TOLLGATE_WEBHOOK_MAX_ATTEMPTS`), then given up and listed for the operators, who can redeliver it; a 3xx (redirects are not followed) or another 4xx is not retried. At least once: a repeat carries the same `webhook-id` and the same bytes, so deduplicate on `webhook-id`. See README, "Reorgs and retractions".
         */
        post: operations["retractionWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    test: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test webhook
         * @description Sent on request (POST /v2/webhook/test) to a subscription's receiver, the key's travel rule webhook, or a URL given: signed like every webhook (both secrets during a rotation's overlap), with `"test": true` and no event. Sent once, without retries, also while the subscription is paused or its endpoint disabled; its attempt is listed by GET /v2/webhook/deliveries. No `sequence`. Answer 2xx (README, "Webhook operations").
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    endpointDisabled: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Operator notice: an endpoint was disabled
         * @description Sent to the operator, not to an API key: to `TOLLGATE_OPERATOR_WEBHOOK_URL`, signed per Standard Webhooks with `TOLLGATE_OPERATOR_WEBHOOK_SECRET` (the operator's own `whsec_` secret, not a key's), when an endpoint (a key's webhook URL) had no 2xx for longer than `TOLLGATE_WEBHOOK_DISABLE_AFTER_HOURS` and was disabled: its events are kept, pending, and not sent until it is enabled again (POST /v2/webhook/endpoints/enable, or the dashboard). The same `webhook-id` on every attempt; retried with backoff for about four days on a 5xx, 408, 429 or no answer. No webhook body and no whole URL are in it (README, "Webhook operations").
         */
        post: operations["endpointDisabledWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        AmlExplainedCounterparty: {
            /** @description A counterparty of the address (one hop). */
            address: string;
            /** @description The address carrying the label: the counterparty itself (direct_), or a counterparty of it (indirect_). */
            labelled: string;
            sources: {
                source: string;
                name: string;
            }[];
            /** @description Transactions shared with the counterparty. */
            transactions: number;
            /** @description Native value sent to the counterparty, in whole units (EVM); null on Bitcoin-family networks. */
            sent: string | null;
            /** @description Native value received from it (EVM). */
            received: string | null;
            /** @description (sent + received) / the address's native volume, 0 to 1 (EVM). */
            share: number | null;
        };
        /** @description Not in the spec: only with detail=true. */
        AmlExplanation: {
            /** @description Identifies the label set the answer was computed from (a hash of its state). */
            labels_version: string;
            /** @description Identifies the scoring configuration (a hash of `aml`). */
            scoring_config: string;
            tags: {
                [key: string]: {
                    /** @enum {string} */
                    level: "base" | "direct" | "indirect";
                    hops: number;
                    sources?: {
                        source: string;
                        name: string;
                    }[];
                    /** @description At most 20, most transactions first. */
                    counterparties?: components["schemas"]["AmlExplainedCounterparty"][];
                    counterparty_count?: number;
                    first_seen?: number | null;
                    transactions?: number;
                };
            };
        };
        /** @description Base tags, and direct_/indirect_ variants of all but new_wallet and invalid_tokens. */
        AmlTags: {
            mixer: boolean;
            fake_kyc: boolean;
            cybercrime: boolean;
            new_wallet: boolean;
            sanctioned: boolean;
            invalid_tokens: boolean;
            financial_crime: boolean;
            stealing_attack: boolean;
            money_laundering: boolean;
            gambling_accounts: boolean;
            blacklisted_tokens: boolean;
            phishing_activities: boolean;
            blacklisted_accounts: boolean;
            blackmail_activities: boolean;
            darkweb_transactions: boolean;
            number_of_malicious_contracts_created: boolean;
            direct_mixer: boolean;
            direct_fake_kyc: boolean;
            direct_cybercrime: boolean;
            direct_sanctioned: boolean;
            direct_financial_crime: boolean;
            direct_stealing_attack: boolean;
            direct_money_laundering: boolean;
            direct_gambling_accounts: boolean;
            direct_blacklisted_tokens: boolean;
            direct_phishing_activities: boolean;
            direct_blacklisted_accounts: boolean;
            direct_blackmail_activities: boolean;
            direct_darkweb_transactions: boolean;
            direct_number_of_malicious_contracts_created: boolean;
            indirect_mixer: boolean;
            indirect_fake_kyc: boolean;
            indirect_cybercrime: boolean;
            indirect_sanctioned: boolean;
            indirect_financial_crime: boolean;
            indirect_stealing_attack: boolean;
            indirect_money_laundering: boolean;
            indirect_gambling_accounts: boolean;
            indirect_blacklisted_tokens: boolean;
            indirect_phishing_activities: boolean;
            indirect_blacklisted_accounts: boolean;
            indirect_blackmail_activities: boolean;
            indirect_darkweb_transactions: boolean;
            indirect_number_of_malicious_contracts_created: boolean;
        };
        CheckTxResult: {
            /** @constant */
            valid: true;
            network: string;
            screening: {
                originator: {
                    score: number;
                    /** @description Tags true on any of the party's addresses. */
                    tags: {
                        [key: string]: true;
                    };
                };
                beneficiary: {
                    score: number;
                    /** @description Tags true on any of the party's addresses. */
                    tags: {
                        [key: string]: true;
                    };
                };
            };
            threshold: {
                jurisdiction: string;
                currency: string;
                threshold: string;
                /** @enum {string} */
                result: "above" | "below" | "unknown";
                value?: string;
                rate?: string;
            }[];
        };
        DeliveryAttempt: {
            /** @description The event's id. */
            event_id: string;
            /** @description The webhook-id the receiver saw: msg_<event_id>. */
            webhook_id: string;
            /** @enum {string} */
            kind: "stream" | "aml" | "travelrule" | "test";
            /** @description The subscription’s address; null for travel rule webhooks. */
            address: string | null;
            network: string | null;
            tx_hash: string | null;
            /** @description The event’s sequence in its subscription; null without one. */
            sequence: number | null;
            /**
             * @description The event now: pending (due, backing off, or held), delivered, failed (given up), cancelled.
             * @enum {string}
             */
            event_status: "pending" | "delivered" | "failed" | "cancelled";
            attempt: number;
            /** Format: date-time */
            attempted_at: string;
            url: string;
            /** @description The receiver answered 2xx. */
            succeeded: boolean;
            /** @description The receiver’s HTTP status; null: no answer. */
            status_code: number | null;
            duration_ms: number;
            /** @description Why it failed; null on a 2xx. */
            error: string | null;
            /** @description The first bytes of the receiver’s answer body (at most 1 KiB, UTF-8); null when it did not answer, and for travel rule webhooks. */
            response: string | null;
        };
        Error: {
            /** @description Error number (same as status). */
            code: number;
            /** @description Error number (same as code). */
            status: number;
            message: string;
            /** @description Not in the spec: the specific reason, where `message` is the text the spec shows for the number (stream/create `Invalid webhook.`, stream/delete `Invalid Address.`). */
            detail?: string;
        };
        LiveAmlEventRecord: {
            id: string;
            /** @description The tracked wallet. */
            address: string;
            event: {
                hash: string;
                /** @description AML tags: only the indirect_ variants, as the spec shows for this list (the webhook has all of them). */
                tags: {
                    [key: string]: boolean;
                };
                /** @description Risk score 0–100, 100 the highest risk (the same scale as /analyze/aml). */
                score: number;
                /** @description The tags true for this transaction. */
                hash_tags: {
                    [key: string]: boolean;
                };
                block_number: number;
                /** @description Not in the spec: which counterparty of the transaction brought each of its tags (at most 10 per tag); for an event of a label change, the counterparties through which the changed labels reach the address (none for a tag of the address itself). */
                triggered_by: components["schemas"]["LiveAmlTrigger"][];
            };
            /** Format: date-time */
            created_at: string;
        };
        LiveAmlTrackingRecord: {
            address: string;
            /** Format: uri */
            aml_webhook: string;
            /** Format: date-time */
            created_at: string;
            /** @description The same key also streams this address. */
            has_stream: boolean;
            /** @description Not in the spec: paused (POST /liveaml/pause); its alerts are kept, not sent, until it is resumed. */
            paused: boolean;
        };
        LiveAmlTrigger: {
            /** @description A tag of hash_tags, e.g. direct_mixer. */
            tag: string;
            /** @description The address the transaction shared with the tracked one. */
            counterparty: string;
            /** @description The address that carries the label: the counterparty for direct_, a counterparty of it for indirect_. */
            labelled: string;
            /** @description Label sources, e.g. ofac, a CSV source, onchain:chainalysis_sanctions_oracle. */
            sources: string[];
        };
        NftItem: {
            /** @description metadata.name; "" until the metadata is fetched, or when it cannot be. */
            name: string;
            /** @description metadata.image (may be ipfs:// or data:); "" when unknown. */
            image: string;
            /** @description One entry for the image; [] when there is none. */
            media: {
                /** @description The image URI as the metadata gives it. */
                raw: string;
                /** @description http(s) URL a browser can load (ipfs:// through the configured gateway; data: passed through); "" for other schemes. */
                gateway: string;
            }[];
            chainId: number;
            /** @description Network symbol; Polygon items say "matic" as the spec shows. */
            network: string;
            metadata: components["schemas"]["NftMetadata"];
            /** @description Decimal digits. */
            token_id: string;
            /** @enum {string} */
            token_type: "ERC721" | "ERC1155";
            description: string;
            /** @description name() of the contract; "" when it has none or it was not read yet. */
            contract_name: string;
            contract_symbol: string;
            /** @description Lower-case 0x address. */
            contract_address: string;
            /** @description Not in the spec: how many of this token the wallet holds, in decimal digits: "1" for an ERC721, the balance for an ERC1155 (received less sent over the indexed history). */
            amount: string;
            /**
             * @description Not in the spec. ok: the metadata fields hold the fetched metadata; pending: a fetch is on its way (the fields are empty for now: ask again); failed: it could not be fetched (tried again later).
             * @enum {string}
             */
            metadata_status: "ok" | "pending" | "failed";
        };
        NftMetadata: {
            name: string;
            /** @description URI as the token gives it (may be ipfs:// or data:); "" when unknown. */
            image: string;
            description: string;
            /** @description Present when the token has attributes, or has neither attributes nor properties ([]). Values as strings. */
            attributes?: {
                trait_type: string;
                value: string;
            }[];
            /** @description Present when the token has a properties object. */
            properties?: {
                [key: string]: unknown;
            };
            external_url?: string;
            animation_url?: string;
        };
        StreamRecord: {
            address: string;
            /** Format: uri */
            stream_webhook: string;
            /** Format: date-time */
            created_at: string;
            has_stream: boolean;
            /** @description Not in the spec: paused (POST /stream/pause); its events are kept, not sent, until it is resumed. */
            paused: boolean;
        };
        TravelAddress: {
            travel_address: string;
            url: string;
            network: string;
            address: string;
        };
        TxDetail: {
            from: string;
            to: string;
            /** @enum {string} */
            status: "Success" | "Failed";
            /** @description Block time, Unix seconds. */
            timestamp: number;
            network: string;
            hash: string;
            /** @description Native value in the network's unit (ETH, BTC, …) as a float. */
            value: number;
            transfers: {
                from: string;
                to: string;
                value: number;
                token_name: string;
                token_symbol: string;
            }[];
            aml_data: {
                tags: {
                    [key: string]: boolean;
                };
                score: number;
                /** @description Score bands (configurable, key `aml.thresholds`); spelled as the spec. */
                threshold: {
                    low: number;
                    modarate: number;
                    high: number;
                };
            };
        };
        TxStatusRecord: {
            transaction_ref: string;
            /** @enum {string} */
            direction: "outgoing" | "incoming";
            /** @enum {string} */
            status: "CREATED" | "REJECTED" | "APPROVED" | "COMPLETED" | "SCORE" | "PENDING" | "WAITING_TX_HASH" | "OTHER_VASP_PENDING" | "OTHER_VASP_APPROVED" | "OTHER_VASP_REJECTED" | "WAITING_ADDRESS_DATA" | "WAITING_FOR_CONFIRMATION" | "TRANSACTION_CONFIRMED";
            asset: string;
            network: string | null;
            amount: string;
            tx_hash: string | null;
            counterparty_vasp_id: string | null;
            counterparty_protocol: ("trp" | "email") | null;
            counterparty_reason: string | null;
            /** @description A deposit's over TRP: the legal name the originator VASP's inquiry gave for itself (IVMS101 originatingVASP, its LEGL name), as stated: not checked against the VASP directory (counterparty_vasp_id is the directory's VASP the inquiry came from). Null when it gave none, and for withdrawals. */
            counterparty_stated_name: string | null;
            /** @description Beside counterparty_stated_name: the LEI the inquiry gave for the originator VASP (nationalIdentifierType LEIX), upper case, when its ISO 17442 check digits hold; null otherwise. */
            counterparty_stated_lei: string | null;
            /** @description A deposit's over TRP: how the originator VASP's inquiry says the persons' names were transliterated into Latin letters (IVMS101 payloadMetadata.transliterationMethod: arab, aran, armn, cyrs, deva, geor, grek, hani, hebr, kana, kore, thai, othr), as stated, each known code once; null when it named none, and for withdrawals. */
            counterparty_transliteration: string[] | null;
            /** @description A withdrawal's: the address the beneficiary VASP approved for the payment (TRP `approved.address`, or the one an operator recorded with the answer of a VASP reached by e-mail). Pay to this one, not to an address known before: it is what the beneficiary VASP approved, and with a Travel Address it may be one your backend never knew. Null until approved (and when an e-mailed VASP's approval was recorded without an address); it does not change once approved. A deposit's: your customer's address the originator VASP was told to pay to (given with send_address, or the account of the Travel Address the inquiry came on); null before that and for a deposit without the protocol. */
            beneficiary_address: string | null;
            /** @description A withdrawal's, once beneficiary_address is known: true when it is none of the beneficiary accountNumber given to create_tx (compared without case on EVM networks, exactly on others), false when it is one of them. Not an error (a Travel Address transfer legitimately gets an address the originator did not know), but a payout meant for the account named at create_tx must go to beneficiary_address. Null when there is nothing to compare: not approved yet, approved without an address, or a deposit. */
            beneficiary_address_differs: boolean | null;
            created_at: string;
            updated_at: string;
            history: {
                from_status: ("CREATED" | "REJECTED" | "APPROVED" | "COMPLETED" | "SCORE" | "PENDING" | "WAITING_TX_HASH" | "OTHER_VASP_PENDING" | "OTHER_VASP_APPROVED" | "OTHER_VASP_REJECTED" | "WAITING_ADDRESS_DATA" | "WAITING_FOR_CONFIRMATION" | "TRANSACTION_CONFIRMED") | null;
                /** @enum {string} */
                status: "CREATED" | "REJECTED" | "APPROVED" | "COMPLETED" | "SCORE" | "PENDING" | "WAITING_TX_HASH" | "OTHER_VASP_PENDING" | "OTHER_VASP_APPROVED" | "OTHER_VASP_REJECTED" | "WAITING_ADDRESS_DATA" | "WAITING_FOR_CONFIRMATION" | "TRANSACTION_CONFIRMED";
                /** @enum {string} */
                actor_type: "api_key" | "operator" | "counterparty" | "system";
                at: string;
            }[];
            messages: {
                /** @enum {string} */
                kind: "trp_inquiry" | "trp_resolution" | "trp_confirmation" | "email_inquiry" | "email_tx_hash" | "email_cancel";
                /** @enum {string} */
                status: "pending" | "sent" | "failed" | "cancelled";
                attempts: number;
                last_status: number | null;
                last_error: string | null;
                sent_at: string | null;
            }[];
        };
        VaspRecord: {
            /** Format: uuid */
            uid: string;
            name: string;
            legal_name: string | null;
            /** @description ISO 3166-1 alpha-2, upper case. */
            country: string | null;
            website: string;
        };
        WalletTransaction: {
            /** @description "<network symbol>:<hash>", stable across pages. */
            id: string;
            /** @description Recipient; the created contract for a contract creation. */
            to_address: string;
            from_address: string;
            hash: string;
            /** @description Gas limit of the transaction. */
            gas: string;
            /** @description Effective gas price paid, in wei. */
            gas_price: string;
            /** @description Block time, Unix seconds. */
            timestamp: string;
            /** @description Native value in the chain's smallest unit. */
            value: string;
            block_number: string;
            logs: {
                address: string;
                topics: string[];
                data: string;
            }[];
            /** @description Network symbol; Polygon items say "matic" as the spec shows. */
            network: string;
            /** @description Not in the spec: the receipt's status, 1 success, 0 reverted (its value did not move and it has no logs, though the item still shows the value sent); null where the node gave none (receipts before Byzantium). */
            status: number | null;
        };
        WebhookEndpoint: {
            url: string;
            /** @enum {string} */
            state: "active" | "failing" | "disabled";
            /** @description The first attempt without a 2xx since the last 2xx. */
            failing_since: string | null;
            disabled_at: string | null;
            last_attempt_at: string | null;
            last_status_code: number | null;
            last_error: string | null;
            last_success_at: string | null;
            /** @description Streams of this key that use it. */
            streams: number;
            /** @description Live AML trackings of this key that use it. */
            liveaml: number;
            /** @description It is this key’s travel rule webhook. */
            travelrule: boolean;
            pending_events: number;
        };
    };
    responses: {
        /** @description No API key, or one that is unknown or revoked (error number 4010). */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": 4010,
                 *       "status": 4010,
                 *       "message": "Invalid API key."
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The body is larger than the configured limit (error number 4130, default 1 MiB). */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": 4130,
                 *       "status": 4130,
                 *       "message": "Request body larger than 1048576 bytes."
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A compressed body (a `Content-Encoding` other than `identity`), or one labelled as neither JSON nor a form (`Content-Type` text/plain, XML, multipart): bodies are taken uncompressed, as JSON (none given is taken as JSON) or `application/x-www-form-urlencoded` (error number 5000). */
        UnsupportedEncoding: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": 5000,
                 *       "status": 5000,
                 *       "message": "Content-Encoding gzip is not supported: send the body uncompressed."
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description More requests for this API key than its limit per minute (error number 4290); `Retry-After` says when to come back. */
        TooManyRequests: {
            headers: {
                /** @description Seconds until a request may succeed. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": 4290,
                 *       "status": 4290,
                 *       "message": "Rate limit exceeded: 600 requests per minute."
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description An unexpected failure on the appliance (error number 5999); the message carries a request id to find it in the logs. */
        Internal: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": 5999,
                 *       "status": 5999,
                 *       "message": "Internal error (request id 3f0c9a1e)."
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The database cannot be reached for now, or the data asked for is not indexed yet (error number 5030); nothing was changed, retry later. */
        Unavailable: {
            headers: {
                /** @description Seconds to wait before retrying. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "code": 5030,
                 *       "status": 5030,
                 *       "message": "Service unavailable: the database cannot be reached; retry later (request id 3f0c9a1e)."
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    streamCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "address": "0x9E7454285FBBfc8c034bad9Cb4cBfba6254D7D87",
                 *       "webhook": "https://backend.example.com/hooks/stream",
                 *       "aml_webhook": "https://backend.example.com/hooks/aml"
                 *     }
                 */
                "application/json": {
                    /** @description Wallet address, exactly as on its chain (no surrounding spaces). EVM: 0x and 40 hex digits, a mixed-case one with a valid EIP-55 checksum; Bitcoin-family: base58check or bech32/bech32m, checksum verified. */
                    address: string;
                    /** @description http(s) URL that receives the webhooks; must not resolve to a private, loopback or link-local address unless the operator allows that range. */
                    webhook: string;
                    /** @description Also sets the live AML webhook for the address. */
                    aml_webhook?: string;
                    /** @description Not in the spec. The address's past transactions in the indexed blocks from this block number on (on each indexed network of its family) are sent first, in chain order (by `sequence`), with `"replay": true` in the body; then live ones. A replayed transaction with enough confirmations is sent once, confirmed. Events this stream already had are not sent again. The answer's X-Tollgate-Replayed header says how many were queued, X-Tollgate-History how far the indexed history reaches. */
                    from_block?: number | string;
                    /** @description The API key, when it is not sent in the apikey header, the query or as the basic-auth username. */
                    apikey?: string;
                };
            };
        };
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    /** @description Not in the spec; with from_block only: how many past transactions were queued for the webhook. */
                    "X-Tollgate-Replayed"?: string;
                    /** @description Not in the spec; with from_block only: how far the indexed history of each network reaches (`eth=12000000-12345678`; see /wallet/transactions). */
                    "X-Tollgate-History"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": null
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: null;
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 invalid address; 5004 `Invalid webhook.`; 5005 the API key already has as many streams or live AML trackings as it may (TOLLGATE_MAX_STREAMS_PER_KEY, TOLLGATE_MAX_TRACKINGS_PER_KEY). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedEncoding"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    streamDelete: {
        parameters: {
            query: {
                /**
                 * @description Wallet address, exactly as on its chain (no surrounding spaces). EVM: 0x and 40 hex digits, a mixed-case one with a valid EIP-55 checksum; Bitcoin-family: base58check or bech32/bech32m, checksum verified.
                 * @example 0x9E7454285FBBfc8c034bad9Cb4cBfba6254D7D87
                 */
                address: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": null
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: null;
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 `Invalid Address.`; 5003 nothing of this API key at that address or reference. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5002,
                     *       "status": 5002,
                     *       "message": "Invalid Address."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    streamList: {
        parameters: {
            query?: {
                /**
                 * @description Page number, from 1.
                 * @example 1
                 */
                page?: number;
                /**
                 * @description Items per page, 1 to 100.
                 * @example 10
                 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": [
                     *         {
                     *           "address": "0x9e7454285fbbfc8c034bad9cb4cbfba6254d7d87",
                     *           "stream_webhook": "https://backend.example.com/hooks/stream",
                     *           "created_at": "2025-03-14T09:26:53.589Z",
                     *           "has_stream": true,
                     *           "paused": false
                     *         },
                     *         {
                     *           "address": "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
                     *           "stream_webhook": "https://backend.example.com/hooks/stream",
                     *           "created_at": "2025-03-12T16:02:11.204Z",
                     *           "has_stream": true,
                     *           "paused": false
                     *         }
                     *       ],
                     *       "page_count": 1
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: components["schemas"]["StreamRecord"][];
                        page_count: number;
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    walletTransactions: {
        parameters: {
            query: {
                /**
                 * @description Wallet address, exactly as on its chain (no surrounding spaces). EVM: 0x and 40 hex digits, a mixed-case one with a valid EIP-55 checksum; Bitcoin-family: base58check or bech32/bech32m, checksum verified.
                 * @example 0x5fA78c6C209EEc0c5C6BDBfb1bd48e65291b76AA
                 */
                address: string;
                /**
                 * @description Page number, from 1.
                 * @example 1
                 */
                page: number;
                /**
                 * @description Items per page, 1 to 100.
                 * @example 10
                 */
                limit: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    /** @description Not in the spec. How far the indexed history of each EVM network in the answer reaches: `eth=12000000-12345678, polygon=none` (first and last block stored, every block between them indexed; `none`: nothing indexed yet). Transactions and NFT holdings older than a network's first block are not in the answer: an empty list with eth=none or a late first block means "not indexed", not "no activity". */
                    "X-Tollgate-History"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": [
                     *         {
                     *           "id": "eth:0x23e6a971b85b00abf027b28f89d84baa80af5255f07f9f1909f917f2e69f8160",
                     *           "to_address": "0xdac17f958d2ee523a2206206994597c13d831ec7",
                     *           "from_address": "0x6183d9a9f3a8e84d5577bbbfe28f112be431349b",
                     *           "hash": "0x23e6a971b85b00abf027b28f89d84baa80af5255f07f9f1909f917f2e69f8160",
                     *           "gas": "63209",
                     *           "gas_price": "18394711025",
                     *           "timestamp": "1741945319",
                     *           "value": "0",
                     *           "block_number": "22051240",
                     *           "logs": [
                     *             {
                     *               "address": "0xdac17f958d2ee523a2206206994597c13d831ec7",
                     *               "topics": [
                     *                 "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
                     *                 "0x0000000000000000000000006183d9a9f3a8e84d5577bbbfe28f112be431349b",
                     *                 "0x0000000000000000000000005fa78c6c209eec0c5c6bdbfb1bd48e65291b76aa"
                     *               ],
                     *               "data": "0x000000000000000000000000000000000000000000000000000000009502f900"
                     *             }
                     *           ],
                     *           "network": "eth",
                     *           "status": 1
                     *         },
                     *         {
                     *           "id": "eth:0x80033a82dd0a78185641ef029475485162ea6803eb19fafc1c943903e55a3413",
                     *           "to_address": "0x5fa78c6c209eec0c5c6bdbfb1bd48e65291b76aa",
                     *           "from_address": "0x6183d9a9f3a8e84d5577bbbfe28f112be431349b",
                     *           "hash": "0x80033a82dd0a78185641ef029475485162ea6803eb19fafc1c943903e55a3413",
                     *           "gas": "21000",
                     *           "gas_price": "17851300412",
                     *           "timestamp": "1741945247",
                     *           "value": "500000000000000000",
                     *           "block_number": "22051234",
                     *           "logs": [],
                     *           "network": "eth",
                     *           "status": 1
                     *         }
                     *       ],
                     *       "page_count": 1
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: components["schemas"]["WalletTransaction"][];
                        page_count: number;
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 `Invalid Address.`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    walletNfts: {
        parameters: {
            query: {
                /**
                 * @description Wallet address, exactly as on its chain (no surrounding spaces). EVM: 0x and 40 hex digits, a mixed-case one with a valid EIP-55 checksum; Bitcoin-family: base58check or bech32/bech32m, checksum verified.
                 * @example 0xf0B1593fa2BB764F24752601a6326A341c7641af
                 */
                address: string;
                /** @description true: fetch the metadata of every NFT of the wallet again (the answer still shows what is known now). */
                refresh?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    /** @description Not in the spec. How far the indexed history of each EVM network in the answer reaches: `eth=12000000-12345678, polygon=none` (first and last block stored, every block between them indexed; `none`: nothing indexed yet). Transactions and NFT holdings older than a network's first block are not in the answer: an empty list with eth=none or a late first block means "not indexed", not "no activity". */
                    "X-Tollgate-History"?: string;
                    /** @description Not in the spec: how many items have metadata on its way (metadata_status "pending"); present only then, with Cache-Control: no-store. Ask again shortly rather than keep this answer. */
                    "X-Tollgate-Metadata-Pending"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": [
                     *         {
                     *           "name": "Pixel Otter #1042",
                     *           "image": "ipfs://QmYwAPJzv5CZsnAzt8auVZRn1pfejD2o6KQAwkmXNXSPfY/1042.png",
                     *           "media": [
                     *             {
                     *               "raw": "ipfs://QmYwAPJzv5CZsnAzt8auVZRn1pfejD2o6KQAwkmXNXSPfY/1042.png",
                     *               "gateway": "https://ipfs.io/ipfs/QmYwAPJzv5CZsnAzt8auVZRn1pfejD2o6KQAwkmXNXSPfY/1042.png"
                     *             }
                     *           ],
                     *           "chainId": 1,
                     *           "network": "eth",
                     *           "metadata": {
                     *             "name": "Pixel Otter #1042",
                     *             "image": "ipfs://QmYwAPJzv5CZsnAzt8auVZRn1pfejD2o6KQAwkmXNXSPfY/1042.png",
                     *             "description": "One of 10,000 pixel otters.",
                     *             "attributes": [
                     *               {
                     *                 "trait_type": "Background",
                     *                 "value": "Teal"
                     *               },
                     *               {
                     *                 "trait_type": "Level",
                     *                 "value": "7"
                     *               }
                     *             ],
                     *             "external_url": "https://otters.example/token/1042"
                     *           },
                     *           "token_id": "1042",
                     *           "token_type": "ERC721",
                     *           "description": "One of 10,000 pixel otters.",
                     *           "contract_name": "Pixel Otters",
                     *           "contract_symbol": "OTTER",
                     *           "contract_address": "0xa15e1f7a81e731c3bf14743b55e03234e4dd0a5c",
                     *           "amount": "1",
                     *           "metadata_status": "ok"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: components["schemas"]["NftItem"][];
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 `Invalid Address.`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    analyzeAml: {
        parameters: {
            query: {
                /**
                 * @description Wallet address, exactly as on its chain (no surrounding spaces). EVM: 0x and 40 hex digits, a mixed-case one with a valid EIP-55 checksum; Bitcoin-family: base58check or bech32/bech32m, checksum verified.
                 * @example 0x5fA78c6C209EEc0c5C6BDBfb1bd48e65291b76AA
                 */
                address: string;
                /**
                 * @description Network symbol (the spec's table of 23). An unknown symbol gets error 5000.
                 * @example eth
                 */
                network: "eth" | "bsc" | "polygon" | "avalanche" | "arb" | "op" | "bitcoin" | "litecoin" | "doge" | "trx" | "xrp" | "solana" | "ada" | "stellar" | "sui" | "ton" | "dot" | "apt" | "vet" | "algo" | "atom" | "xtz" | "eos";
                /** @description http(s) URL that receives the webhooks; must not resolve to a private, loopback or link-local address unless the operator allows that range. */
                webhook?: string;
                /** @description Not in the spec: true adds `explanation`, where each true tag comes from (labels and their sources, the counterparties, values exchanged). */
                detail?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": {
                     *         "score": 53,
                     *         "tags": {
                     *           "mixer": false,
                     *           "fake_kyc": false,
                     *           "cybercrime": false,
                     *           "new_wallet": true,
                     *           "sanctioned": false,
                     *           "invalid_tokens": false,
                     *           "financial_crime": false,
                     *           "stealing_attack": false,
                     *           "money_laundering": false,
                     *           "gambling_accounts": false,
                     *           "blacklisted_tokens": false,
                     *           "phishing_activities": false,
                     *           "blacklisted_accounts": false,
                     *           "blackmail_activities": false,
                     *           "darkweb_transactions": false,
                     *           "number_of_malicious_contracts_created": false,
                     *           "direct_mixer": true,
                     *           "direct_fake_kyc": false,
                     *           "direct_cybercrime": false,
                     *           "direct_sanctioned": false,
                     *           "direct_financial_crime": false,
                     *           "direct_stealing_attack": false,
                     *           "direct_money_laundering": false,
                     *           "direct_gambling_accounts": false,
                     *           "direct_blacklisted_tokens": false,
                     *           "direct_phishing_activities": false,
                     *           "direct_blacklisted_accounts": false,
                     *           "direct_blackmail_activities": false,
                     *           "direct_darkweb_transactions": false,
                     *           "direct_number_of_malicious_contracts_created": false,
                     *           "indirect_mixer": false,
                     *           "indirect_fake_kyc": false,
                     *           "indirect_cybercrime": false,
                     *           "indirect_sanctioned": false,
                     *           "indirect_financial_crime": false,
                     *           "indirect_stealing_attack": false,
                     *           "indirect_money_laundering": false,
                     *           "indirect_gambling_accounts": false,
                     *           "indirect_blacklisted_tokens": false,
                     *           "indirect_phishing_activities": false,
                     *           "indirect_blacklisted_accounts": false,
                     *           "indirect_blackmail_activities": false,
                     *           "indirect_darkweb_transactions": false,
                     *           "indirect_number_of_malicious_contracts_created": false
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: {
                            score: number;
                            tags: components["schemas"]["AmlTags"];
                            explanation?: components["schemas"]["AmlExplanation"];
                        };
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 invalid address; 5004 invalid webhook URL (not http(s), or it resolves to a forbidden address); 5005 the API key already has as many streams or live AML trackings as it may (TOLLGATE_MAX_STREAMS_PER_KEY, TOLLGATE_MAX_TRACKINGS_PER_KEY). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    analyzeTxDetail: {
        parameters: {
            query: {
                /** @example 0x23e6a971b85b00abf027b28f89d84baa80af5255f07f9f1909f917f2e69f8160 */
                hash: string;
                /**
                 * @description Network symbol (the spec's table of 23). An unknown symbol gets error 5000.
                 * @example eth
                 */
                network: "eth" | "bsc" | "polygon" | "avalanche" | "arb" | "op" | "bitcoin" | "litecoin" | "doge" | "trx" | "xrp" | "solana" | "ada" | "stellar" | "sui" | "ton" | "dot" | "apt" | "vet" | "algo" | "atom" | "xtz" | "eos";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": {
                     *         "from": "0x6183d9a9f3a8e84d5577bbbfe28f112be431349b",
                     *         "to": "0xdac17f958d2ee523a2206206994597c13d831ec7",
                     *         "status": "Success",
                     *         "timestamp": 1741945319,
                     *         "network": "eth",
                     *         "hash": "0x23e6a971b85b00abf027b28f89d84baa80af5255f07f9f1909f917f2e69f8160",
                     *         "value": 0,
                     *         "transfers": [
                     *           {
                     *             "from": "0x6183d9a9f3a8e84d5577bbbfe28f112be431349b",
                     *             "to": "0x5fa78c6c209eec0c5c6bdbfb1bd48e65291b76aa",
                     *             "value": 2500,
                     *             "token_name": "Tether USD",
                     *             "token_symbol": "USDT"
                     *           }
                     *         ],
                     *         "aml_data": {
                     *           "tags": {
                     *             "mixer": true,
                     *             "new_wallet": true,
                     *             "direct_mixer": true
                     *           },
                     *           "score": 82,
                     *           "threshold": {
                     *             "low": 25,
                     *             "modarate": 50,
                     *             "high": 75
                     *           }
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: components["schemas"]["TxDetail"];
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 invalid transaction hash, or one neither the index nor the network's node knows (the spec's number for tx_detail). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    liveamlCreate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "address": "0x5fA78c6C209EEc0c5C6BDBfb1bd48e65291b76AA",
                 *       "webhook": "https://backend.example.com/hooks/aml",
                 *       "stream_webhook": "https://backend.example.com/hooks/stream"
                 *     }
                 */
                "application/json": {
                    /** @description Wallet address, exactly as on its chain (no surrounding spaces). EVM: 0x and 40 hex digits, a mixed-case one with a valid EIP-55 checksum; Bitcoin-family: base58check or bech32/bech32m, checksum verified. */
                    address: string;
                    /** @description URL that receives the live AML webhooks. */
                    webhook: string;
                    /** @description Also creates (or updates) the stream for the address, with this webhook. */
                    stream_webhook?: string;
                    /** @description Not in the spec. The address's past transactions in the indexed blocks from this block number on (each indexed network of its family) are checked first, in chain order, and a risky one raises its alert with `"replay": true`; alerts of live transactions come after them. Only the live AML webhook is replayed (not the stream). The answer's X-Tollgate-History header says how far the indexed history reaches. */
                    from_block?: number | string;
                    /** @description The API key, when it is not sent in the apikey header, the query or as the basic-auth username. */
                    apikey?: string;
                };
            };
        };
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    /** @description Not in the spec; with from_block only: how far the indexed history of each network reaches (`eth=12000000-12345678`; see /wallet/transactions). */
                    "X-Tollgate-History"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": null
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: null;
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 invalid address; 5004 invalid webhook URL (not http(s), or it resolves to a forbidden address); 5005 the API key already has as many streams or live AML trackings as it may (TOLLGATE_MAX_STREAMS_PER_KEY, TOLLGATE_MAX_TRACKINGS_PER_KEY). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedEncoding"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    liveamlDelete: {
        parameters: {
            query: {
                /**
                 * @description Wallet address, exactly as on its chain (no surrounding spaces). EVM: 0x and 40 hex digits, a mixed-case one with a valid EIP-55 checksum; Bitcoin-family: base58check or bech32/bech32m, checksum verified.
                 * @example 0x5fA78c6C209EEc0c5C6BDBfb1bd48e65291b76AA
                 */
                address: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": null
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: null;
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 invalid address; 5003 nothing of this API key at that address or reference. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5002,
                     *       "status": 5002,
                     *       "message": "Invalid address."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    liveamlList: {
        parameters: {
            query: {
                /**
                 * @description Page number, from 1.
                 * @example 1
                 */
                page: number;
                /**
                 * @description Items per page, 1 to 100.
                 * @example 10
                 */
                limit: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": [
                     *         {
                     *           "address": "0x5fa78c6c209eec0c5c6bdbfb1bd48e65291b76aa",
                     *           "aml_webhook": "https://backend.example.com/hooks/aml",
                     *           "created_at": "2025-03-14T09:31:07.412Z",
                     *           "has_stream": true,
                     *           "paused": false
                     *         }
                     *       ],
                     *       "page_count": 1
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: components["schemas"]["LiveAmlTrackingRecord"][];
                        page_count: number;
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    liveamlEvents: {
        parameters: {
            query: {
                /**
                 * @description Page number, from 1.
                 * @example 1
                 */
                page: number;
                /**
                 * @description Items per page, 1 to 100.
                 * @example 10
                 */
                limit: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": [
                     *         {
                     *           "id": "5812",
                     *           "address": "0x5fa78c6c209eec0c5c6bdbfb1bd48e65291b76aa",
                     *           "event": {
                     *             "hash": "0x80033a82dd0a78185641ef029475485162ea6803eb19fafc1c943903e55a3413",
                     *             "tags": {
                     *               "indirect_mixer": false,
                     *               "indirect_fake_kyc": false,
                     *               "indirect_cybercrime": false,
                     *               "indirect_sanctioned": false,
                     *               "indirect_financial_crime": false,
                     *               "indirect_stealing_attack": false,
                     *               "indirect_money_laundering": false,
                     *               "indirect_gambling_accounts": false,
                     *               "indirect_blacklisted_tokens": false,
                     *               "indirect_phishing_activities": false,
                     *               "indirect_blacklisted_accounts": false,
                     *               "indirect_blackmail_activities": false,
                     *               "indirect_darkweb_transactions": false,
                     *               "indirect_number_of_malicious_contracts_created": false
                     *             },
                     *             "score": 53,
                     *             "hash_tags": {
                     *               "direct_mixer": true
                     *             },
                     *             "block_number": 22051234,
                     *             "triggered_by": [
                     *               {
                     *                 "tag": "direct_mixer",
                     *                 "counterparty": "0x6183d9a9f3a8e84d5577bbbfe28f112be431349b",
                     *                 "labelled": "0x6183d9a9f3a8e84d5577bbbfe28f112be431349b",
                     *                 "sources": [
                     *                   "internal-watchlist"
                     *                 ]
                     *               }
                     *             ]
                     *           },
                     *           "created_at": "2025-03-14T09:40:49.305Z"
                     *         }
                     *       ],
                     *       "page_count": 1
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: components["schemas"]["LiveAmlEventRecord"][];
                        page_count: number;
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    travelruleCreateTx: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "transaction_ref": "wd-2025-000142",
                 *       "transaction_asset": "ETH",
                 *       "transaction_network": "eth",
                 *       "transaction_amount": "0.85",
                 *       "transaction_asset_decimals": "18",
                 *       "beneficiary_vasp_id": "2b548b81-d088-4b46-8e91-636d14a6c191",
                 *       "originator": {
                 *         "persons": [
                 *           {
                 *             "naturalPerson": {
                 *               "name": {
                 *                 "nameIdentifier": [
                 *                   {
                 *                     "primaryIdentifier": "Doe",
                 *                     "secondaryIdentifier": "Jane",
                 *                     "nameIdentifierType": "LEGL"
                 *                   }
                 *                 ]
                 *               },
                 *               "dateAndPlaceOfBirth": {
                 *                 "dateOfBirth": "1980-01-01",
                 *                 "placeOfBirth": "Exampleville"
                 *               },
                 *               "nationalIdentification": {
                 *                 "nationalIdentifier": "X0000000",
                 *                 "nationalIdentifierType": "CCPT",
                 *                 "countryOfIssue": "GB"
                 *               },
                 *               "geographicAddress": [
                 *                 {
                 *                   "addressType": "HOME",
                 *                   "streetName": "Example Street",
                 *                   "buildingNumber": "1",
                 *                   "postCode": "AB1 2CD",
                 *                   "townName": "Exampleville",
                 *                   "country": "GB"
                 *                 }
                 *               ],
                 *               "customerIdentification": "CUST-000123"
                 *             }
                 *           }
                 *         ],
                 *         "accountNumber": [
                 *           "0xBE9C99350DFA61d32e8A3b94948F58e723ebb1e1"
                 *         ]
                 *       },
                 *       "beneficiary": {
                 *         "persons": [
                 *           {
                 *             "naturalPerson": {
                 *               "name": {
                 *                 "nameIdentifier": [
                 *                   {
                 *                     "primaryIdentifier": "Roe",
                 *                     "secondaryIdentifier": "Richard",
                 *                     "nameIdentifierType": "LEGL"
                 *                   }
                 *                 ]
                 *               }
                 *             }
                 *           }
                 *         ],
                 *         "accountNumber": [
                 *           "0xF29047aeA3D07514A7ead2bAa9bD036d33065cfD"
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @description The caller's reference of the transaction (at most 255 characters). */
                    transaction_ref: string;
                    /** @description Asset symbol (ETH, BTC, USDT, …), kept as sent; compared case-insensitively. */
                    transaction_asset: string;
                    /**
                     * @description Network symbol. When omitted, derived from the first originator wallet address and the asset (see the endpoint description).
                     * @enum {string}
                     */
                    transaction_network?: "eth" | "bsc" | "polygon" | "avalanche" | "arb" | "op" | "bitcoin" | "litecoin" | "doge" | "trx" | "xrp" | "solana" | "ada" | "stellar" | "sui" | "ton" | "dot" | "apt" | "vet" | "algo" | "atom" | "xtz" | "eos";
                    /** @description Amount in whole units of the asset, a decimal string with at most transaction_asset_decimals fractional digits. */
                    transaction_amount: string;
                    /** @description Decimals of the asset, "0" to "36". */
                    transaction_asset_decimals: string;
                    /** @description The sender: name, wallet address, and at least one of date of birth, national identification, geographic address, customer number. */
                    originator: {
                        /** @description The originator persons; each element is a `naturalPerson` or a `legalPerson` object. */
                        persons: {
                            /** @description A natural person (IVMS101 NaturalPerson). */
                            naturalPerson?: {
                                name: {
                                    nameIdentifier: {
                                        /** @description Family name, or the whole name when it cannot be split (IVMS101 Max100Text). */
                                        primaryIdentifier: string;
                                        /** @description Given names (IVMS101 Max100Text). */
                                        secondaryIdentifier?: string;
                                        /** @description Nature of the name (IVMS101 NaturalPersonNameTypeCode). One of LEGL, ALIA, BIRT, MAID, MISC (any letter case). */
                                        nameIdentifierType?: string;
                                        /** @description The IVMS101.2023 name of nameIdentifierType; either is accepted. */
                                        naturalPersonNameIdentifierType?: string;
                                    }[];
                                    /** @description The name in local characters (IVMS101 LocalNaturalPersonNameId), e.g. in its own script. */
                                    localNameIdentifier?: {
                                        /** @description Family name, or the whole name when it cannot be split (IVMS101 Max100Text). */
                                        primaryIdentifier: string;
                                        /** @description Given names (IVMS101 Max100Text). */
                                        secondaryIdentifier?: string;
                                        /** @description Nature of the name (IVMS101 NaturalPersonNameTypeCode). One of LEGL, ALIA, BIRT, MAID, MISC (any letter case). */
                                        nameIdentifierType?: string;
                                        /** @description The IVMS101.2023 name of nameIdentifierType; either is accepted. */
                                        naturalPersonNameIdentifierType?: string;
                                    }[];
                                    /** @description The name as it is pronounced (IVMS101 LocalNaturalPersonNameId). */
                                    phoneticNameIdentifier?: {
                                        /** @description Family name, or the whole name when it cannot be split (IVMS101 Max100Text). */
                                        primaryIdentifier: string;
                                        /** @description Given names (IVMS101 Max100Text). */
                                        secondaryIdentifier?: string;
                                        /** @description Nature of the name (IVMS101 NaturalPersonNameTypeCode). One of LEGL, ALIA, BIRT, MAID, MISC (any letter case). */
                                        nameIdentifierType?: string;
                                        /** @description The IVMS101.2023 name of nameIdentifierType; either is accepted. */
                                        naturalPersonNameIdentifierType?: string;
                                    }[];
                                };
                                dateAndPlaceOfBirth?: {
                                    /** @description Date of birth, YYYY-MM-DD: a real date from 1900-01-01 to yesterday (UTC). */
                                    dateOfBirth?: string;
                                    /** @description Town and country of birth (IVMS101 Max70Text). */
                                    placeOfBirth?: string;
                                };
                                nationalIdentification?: {
                                    /** @description Identity document or registration number (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode). One of ARNU, CCPT, RAID, DRLC, FIIN, TXID, SOCS, IDCD, LEIX, MISC (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    countryOfIssue?: string;
                                };
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to nationalIdentification.
                                 */
                                nationalIdenficiation?: {
                                    /** @description Identity document or registration number (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode). One of ARNU, CCPT, RAID, DRLC, FIIN, TXID, SOCS, IDCD, LEIX, MISC (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    countryOfIssue?: string;
                                };
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to nationalIdentification (the object, at person level).
                                 */
                                nationalIdentifier?: {
                                    /** @description Identity document or registration number (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode). One of ARNU, CCPT, RAID, DRLC, FIIN, TXID, SOCS, IDCD, LEIX, MISC (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    countryOfIssue?: string;
                                };
                                geographicAddress?: {
                                    /** @description Nature of the address (IVMS101 AddressTypeCode). One of HOME, BIZZ, GEOG (any letter case). */
                                    addressType: string;
                                    /** @description IVMS101 Max50Text. */
                                    department?: string;
                                    /** @description IVMS101 Max70Text. */
                                    subDepartment?: string;
                                    /** @description IVMS101 Max70Text. */
                                    streetName?: string;
                                    /** @description IVMS101 Max16Text. */
                                    buildingNumber?: string;
                                    /** @description IVMS101 Max35Text. */
                                    buildingName?: string;
                                    /** @description IVMS101 Max70Text. */
                                    floor?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postBox?: string;
                                    /** @description IVMS101 Max70Text. */
                                    room?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postCode?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townLocationName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    districtName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    countrySubDivision?: string;
                                    addressLine?: string[];
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    country: string;
                                }[];
                                /** @description Customer number at the VASP (IVMS101 Max50Text). */
                                customerIdentification?: string;
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to customerIdentification (the IVMS101 2020 name).
                                 */
                                customerNumber?: string;
                                /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                countryOfResidence?: string;
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to customerIdentification.
                                 */
                                customerIdenficiation?: string;
                            };
                            /** @description A legal person (IVMS101 LegalPerson), such as a corporate customer. */
                            legalPerson?: {
                                name: {
                                    nameIdentifier: {
                                        /** @description The name (IVMS101 Max100Text). */
                                        legalPersonName: string;
                                        /** @description Nature of the name (IVMS101 LegalPersonNameTypeCode). One of LEGL, SHRT, TRAD (any letter case). */
                                        legalPersonNameIdentifierType: string;
                                    }[];
                                    /** @description The name in local characters (IVMS101 LocalLegalPersonNameId). */
                                    localNameIdentifier?: {
                                        /** @description The name (IVMS101 Max100Text). */
                                        legalPersonName: string;
                                        /** @description Nature of the name (IVMS101 LegalPersonNameTypeCode). One of LEGL, SHRT, TRAD (any letter case). */
                                        legalPersonNameIdentifierType: string;
                                    }[];
                                    /** @description The name as it is pronounced (IVMS101 LocalLegalPersonNameId). */
                                    phoneticNameIdentifier?: {
                                        /** @description The name (IVMS101 Max100Text). */
                                        legalPersonName: string;
                                        /** @description Nature of the name (IVMS101 LegalPersonNameTypeCode). One of LEGL, SHRT, TRAD (any letter case). */
                                        legalPersonNameIdentifierType: string;
                                    }[];
                                };
                                geographicAddress?: {
                                    /** @description Nature of the address (IVMS101 AddressTypeCode). One of HOME, BIZZ, GEOG (any letter case). */
                                    addressType: string;
                                    /** @description IVMS101 Max50Text. */
                                    department?: string;
                                    /** @description IVMS101 Max70Text. */
                                    subDepartment?: string;
                                    /** @description IVMS101 Max70Text. */
                                    streetName?: string;
                                    /** @description IVMS101 Max16Text. */
                                    buildingNumber?: string;
                                    /** @description IVMS101 Max35Text. */
                                    buildingName?: string;
                                    /** @description IVMS101 Max70Text. */
                                    floor?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postBox?: string;
                                    /** @description IVMS101 Max70Text. */
                                    room?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postCode?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townLocationName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    districtName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    countrySubDivision?: string;
                                    addressLine?: string[];
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    country: string;
                                }[];
                                /** @description Customer number at the VASP (IVMS101 Max50Text). */
                                customerNumber?: string;
                                /**
                                 * @deprecated
                                 * @description Alternative spelling; normalised to customerNumber.
                                 */
                                customerIdentification?: string;
                                nationalIdentification?: {
                                    /** @description Registration number, tax number or LEI (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode, a legal person's kinds). One of RAID, MISC, LEIX, TXID (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description The register that issued the identifier, as its GLEIF code (RA000585, say). Required unless the identifier is an LEI; not given with an LEI. */
                                    registrationAuthority?: string;
                                    /** @description Not given for a legal person (IVMS101): its register says where. */
                                    countryOfIssue?: unknown;
                                };
                                /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                countryOfRegistration?: string;
                            };
                        }[];
                        /** @description The originator wallet addresses, each valid on the transaction's network (stored in the network's normal form). */
                        accountNumber: string[];
                    };
                    /** @description The receiver: name and wallet address. */
                    beneficiary: {
                        /** @description The beneficiary persons; each element is a `naturalPerson` or a `legalPerson` object. */
                        persons: {
                            /** @description A natural person (IVMS101 NaturalPerson). */
                            naturalPerson?: {
                                name: {
                                    nameIdentifier: {
                                        /** @description Family name, or the whole name when it cannot be split (IVMS101 Max100Text). */
                                        primaryIdentifier: string;
                                        /** @description Given names (IVMS101 Max100Text). */
                                        secondaryIdentifier?: string;
                                        /** @description Nature of the name (IVMS101 NaturalPersonNameTypeCode). One of LEGL, ALIA, BIRT, MAID, MISC (any letter case). */
                                        nameIdentifierType?: string;
                                        /** @description The IVMS101.2023 name of nameIdentifierType; either is accepted. */
                                        naturalPersonNameIdentifierType?: string;
                                    }[];
                                    /** @description The name in local characters (IVMS101 LocalNaturalPersonNameId), e.g. in its own script. */
                                    localNameIdentifier?: {
                                        /** @description Family name, or the whole name when it cannot be split (IVMS101 Max100Text). */
                                        primaryIdentifier: string;
                                        /** @description Given names (IVMS101 Max100Text). */
                                        secondaryIdentifier?: string;
                                        /** @description Nature of the name (IVMS101 NaturalPersonNameTypeCode). One of LEGL, ALIA, BIRT, MAID, MISC (any letter case). */
                                        nameIdentifierType?: string;
                                        /** @description The IVMS101.2023 name of nameIdentifierType; either is accepted. */
                                        naturalPersonNameIdentifierType?: string;
                                    }[];
                                    /** @description The name as it is pronounced (IVMS101 LocalNaturalPersonNameId). */
                                    phoneticNameIdentifier?: {
                                        /** @description Family name, or the whole name when it cannot be split (IVMS101 Max100Text). */
                                        primaryIdentifier: string;
                                        /** @description Given names (IVMS101 Max100Text). */
                                        secondaryIdentifier?: string;
                                        /** @description Nature of the name (IVMS101 NaturalPersonNameTypeCode). One of LEGL, ALIA, BIRT, MAID, MISC (any letter case). */
                                        nameIdentifierType?: string;
                                        /** @description The IVMS101.2023 name of nameIdentifierType; either is accepted. */
                                        naturalPersonNameIdentifierType?: string;
                                    }[];
                                };
                                dateAndPlaceOfBirth?: {
                                    /** @description Date of birth, YYYY-MM-DD: a real date from 1900-01-01 to yesterday (UTC). */
                                    dateOfBirth?: string;
                                    /** @description Town and country of birth (IVMS101 Max70Text). */
                                    placeOfBirth?: string;
                                };
                                nationalIdentification?: {
                                    /** @description Identity document or registration number (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode). One of ARNU, CCPT, RAID, DRLC, FIIN, TXID, SOCS, IDCD, LEIX, MISC (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    countryOfIssue?: string;
                                };
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to nationalIdentification.
                                 */
                                nationalIdenficiation?: {
                                    /** @description Identity document or registration number (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode). One of ARNU, CCPT, RAID, DRLC, FIIN, TXID, SOCS, IDCD, LEIX, MISC (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    countryOfIssue?: string;
                                };
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to nationalIdentification (the object, at person level).
                                 */
                                nationalIdentifier?: {
                                    /** @description Identity document or registration number (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode). One of ARNU, CCPT, RAID, DRLC, FIIN, TXID, SOCS, IDCD, LEIX, MISC (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    countryOfIssue?: string;
                                };
                                geographicAddress?: {
                                    /** @description Nature of the address (IVMS101 AddressTypeCode). One of HOME, BIZZ, GEOG (any letter case). */
                                    addressType: string;
                                    /** @description IVMS101 Max50Text. */
                                    department?: string;
                                    /** @description IVMS101 Max70Text. */
                                    subDepartment?: string;
                                    /** @description IVMS101 Max70Text. */
                                    streetName?: string;
                                    /** @description IVMS101 Max16Text. */
                                    buildingNumber?: string;
                                    /** @description IVMS101 Max35Text. */
                                    buildingName?: string;
                                    /** @description IVMS101 Max70Text. */
                                    floor?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postBox?: string;
                                    /** @description IVMS101 Max70Text. */
                                    room?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postCode?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townLocationName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    districtName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    countrySubDivision?: string;
                                    addressLine?: string[];
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    country: string;
                                }[];
                                /** @description Customer number at the VASP (IVMS101 Max50Text). */
                                customerIdentification?: string;
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to customerIdentification (the IVMS101 2020 name).
                                 */
                                customerNumber?: string;
                                /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                countryOfResidence?: string;
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to customerIdentification.
                                 */
                                customerIdenficiation?: string;
                            };
                            /** @description A legal person (IVMS101 LegalPerson), such as a corporate customer. */
                            legalPerson?: {
                                name: {
                                    nameIdentifier: {
                                        /** @description The name (IVMS101 Max100Text). */
                                        legalPersonName: string;
                                        /** @description Nature of the name (IVMS101 LegalPersonNameTypeCode). One of LEGL, SHRT, TRAD (any letter case). */
                                        legalPersonNameIdentifierType: string;
                                    }[];
                                    /** @description The name in local characters (IVMS101 LocalLegalPersonNameId). */
                                    localNameIdentifier?: {
                                        /** @description The name (IVMS101 Max100Text). */
                                        legalPersonName: string;
                                        /** @description Nature of the name (IVMS101 LegalPersonNameTypeCode). One of LEGL, SHRT, TRAD (any letter case). */
                                        legalPersonNameIdentifierType: string;
                                    }[];
                                    /** @description The name as it is pronounced (IVMS101 LocalLegalPersonNameId). */
                                    phoneticNameIdentifier?: {
                                        /** @description The name (IVMS101 Max100Text). */
                                        legalPersonName: string;
                                        /** @description Nature of the name (IVMS101 LegalPersonNameTypeCode). One of LEGL, SHRT, TRAD (any letter case). */
                                        legalPersonNameIdentifierType: string;
                                    }[];
                                };
                                geographicAddress?: {
                                    /** @description Nature of the address (IVMS101 AddressTypeCode). One of HOME, BIZZ, GEOG (any letter case). */
                                    addressType: string;
                                    /** @description IVMS101 Max50Text. */
                                    department?: string;
                                    /** @description IVMS101 Max70Text. */
                                    subDepartment?: string;
                                    /** @description IVMS101 Max70Text. */
                                    streetName?: string;
                                    /** @description IVMS101 Max16Text. */
                                    buildingNumber?: string;
                                    /** @description IVMS101 Max35Text. */
                                    buildingName?: string;
                                    /** @description IVMS101 Max70Text. */
                                    floor?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postBox?: string;
                                    /** @description IVMS101 Max70Text. */
                                    room?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postCode?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townLocationName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    districtName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    countrySubDivision?: string;
                                    addressLine?: string[];
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    country: string;
                                }[];
                                /** @description Customer number at the VASP (IVMS101 Max50Text). */
                                customerNumber?: string;
                                /**
                                 * @deprecated
                                 * @description Alternative spelling; normalised to customerNumber.
                                 */
                                customerIdentification?: string;
                                nationalIdentification?: {
                                    /** @description Registration number, tax number or LEI (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode, a legal person's kinds). One of RAID, MISC, LEIX, TXID (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description The register that issued the identifier, as its GLEIF code (RA000585, say). Required unless the identifier is an LEI; not given with an LEI. */
                                    registrationAuthority?: string;
                                    /** @description Not given for a legal person (IVMS101): its register says where. */
                                    countryOfIssue?: unknown;
                                };
                                /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                countryOfRegistration?: string;
                            };
                        }[];
                        /** @description The beneficiary wallet addresses, each valid on the transaction's network (stored in the network's normal form). */
                        accountNumber: string[];
                    };
                    /**
                     * Format: uuid
                     * @description UUID of the counterpart VASP (a uid of list_vasps).
                     */
                    beneficiary_vasp_id?: string;
                    /** @description Not in the spec: the beneficiary's Travel Address (ta…, lnurl1…) or TRP inquiry URL (https). When given, the inquiry goes there, whatever the directory says. */
                    beneficiary_travel_address?: string;
                    /** @description The API key, when it is not sent in the apikey header, the query or as the basic-auth username. */
                    apikey?: string;
                };
            };
        };
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": "PENDING"
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        /** @constant */
                        data: "PENDING";
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 invalid address. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedEncoding"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    travelruleCheckTx: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "transaction_ref": "wd-2025-000142",
                 *       "transaction_asset": "ETH",
                 *       "transaction_network": "eth",
                 *       "transaction_amount": "0.85",
                 *       "transaction_asset_decimals": "18",
                 *       "beneficiary_vasp_id": "2b548b81-d088-4b46-8e91-636d14a6c191",
                 *       "originator": {
                 *         "persons": [
                 *           {
                 *             "naturalPerson": {
                 *               "name": {
                 *                 "nameIdentifier": [
                 *                   {
                 *                     "primaryIdentifier": "Doe",
                 *                     "secondaryIdentifier": "Jane",
                 *                     "nameIdentifierType": "LEGL"
                 *                   }
                 *                 ]
                 *               },
                 *               "dateAndPlaceOfBirth": {
                 *                 "dateOfBirth": "1980-01-01",
                 *                 "placeOfBirth": "Exampleville"
                 *               },
                 *               "nationalIdentification": {
                 *                 "nationalIdentifier": "X0000000",
                 *                 "nationalIdentifierType": "CCPT",
                 *                 "countryOfIssue": "GB"
                 *               },
                 *               "geographicAddress": [
                 *                 {
                 *                   "addressType": "HOME",
                 *                   "streetName": "Example Street",
                 *                   "buildingNumber": "1",
                 *                   "postCode": "AB1 2CD",
                 *                   "townName": "Exampleville",
                 *                   "country": "GB"
                 *                 }
                 *               ],
                 *               "customerIdentification": "CUST-000123"
                 *             }
                 *           }
                 *         ],
                 *         "accountNumber": [
                 *           "0xBE9C99350DFA61d32e8A3b94948F58e723ebb1e1"
                 *         ]
                 *       },
                 *       "beneficiary": {
                 *         "persons": [
                 *           {
                 *             "naturalPerson": {
                 *               "name": {
                 *                 "nameIdentifier": [
                 *                   {
                 *                     "primaryIdentifier": "Roe",
                 *                     "secondaryIdentifier": "Richard",
                 *                     "nameIdentifierType": "LEGL"
                 *                   }
                 *                 ]
                 *               }
                 *             }
                 *           }
                 *         ],
                 *         "accountNumber": [
                 *           "0xF29047aeA3D07514A7ead2bAa9bD036d33065cfD"
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @description The caller's reference of the transaction (at most 255 characters). */
                    transaction_ref: string;
                    /** @description Asset symbol (ETH, BTC, USDT, …), kept as sent; compared case-insensitively. */
                    transaction_asset: string;
                    /**
                     * @description Network symbol. When omitted, derived from the first originator wallet address and the asset (see the endpoint description).
                     * @enum {string}
                     */
                    transaction_network?: "eth" | "bsc" | "polygon" | "avalanche" | "arb" | "op" | "bitcoin" | "litecoin" | "doge" | "trx" | "xrp" | "solana" | "ada" | "stellar" | "sui" | "ton" | "dot" | "apt" | "vet" | "algo" | "atom" | "xtz" | "eos";
                    /** @description Amount in whole units of the asset, a decimal string with at most transaction_asset_decimals fractional digits. */
                    transaction_amount: string;
                    /** @description Decimals of the asset, "0" to "36". */
                    transaction_asset_decimals: string;
                    /** @description The sender: name, wallet address, and at least one of date of birth, national identification, geographic address, customer number. */
                    originator: {
                        /** @description The originator persons; each element is a `naturalPerson` or a `legalPerson` object. */
                        persons: {
                            /** @description A natural person (IVMS101 NaturalPerson). */
                            naturalPerson?: {
                                name: {
                                    nameIdentifier: {
                                        /** @description Family name, or the whole name when it cannot be split (IVMS101 Max100Text). */
                                        primaryIdentifier: string;
                                        /** @description Given names (IVMS101 Max100Text). */
                                        secondaryIdentifier?: string;
                                        /** @description Nature of the name (IVMS101 NaturalPersonNameTypeCode). One of LEGL, ALIA, BIRT, MAID, MISC (any letter case). */
                                        nameIdentifierType?: string;
                                        /** @description The IVMS101.2023 name of nameIdentifierType; either is accepted. */
                                        naturalPersonNameIdentifierType?: string;
                                    }[];
                                    /** @description The name in local characters (IVMS101 LocalNaturalPersonNameId), e.g. in its own script. */
                                    localNameIdentifier?: {
                                        /** @description Family name, or the whole name when it cannot be split (IVMS101 Max100Text). */
                                        primaryIdentifier: string;
                                        /** @description Given names (IVMS101 Max100Text). */
                                        secondaryIdentifier?: string;
                                        /** @description Nature of the name (IVMS101 NaturalPersonNameTypeCode). One of LEGL, ALIA, BIRT, MAID, MISC (any letter case). */
                                        nameIdentifierType?: string;
                                        /** @description The IVMS101.2023 name of nameIdentifierType; either is accepted. */
                                        naturalPersonNameIdentifierType?: string;
                                    }[];
                                    /** @description The name as it is pronounced (IVMS101 LocalNaturalPersonNameId). */
                                    phoneticNameIdentifier?: {
                                        /** @description Family name, or the whole name when it cannot be split (IVMS101 Max100Text). */
                                        primaryIdentifier: string;
                                        /** @description Given names (IVMS101 Max100Text). */
                                        secondaryIdentifier?: string;
                                        /** @description Nature of the name (IVMS101 NaturalPersonNameTypeCode). One of LEGL, ALIA, BIRT, MAID, MISC (any letter case). */
                                        nameIdentifierType?: string;
                                        /** @description The IVMS101.2023 name of nameIdentifierType; either is accepted. */
                                        naturalPersonNameIdentifierType?: string;
                                    }[];
                                };
                                dateAndPlaceOfBirth?: {
                                    /** @description Date of birth, YYYY-MM-DD: a real date from 1900-01-01 to yesterday (UTC). */
                                    dateOfBirth?: string;
                                    /** @description Town and country of birth (IVMS101 Max70Text). */
                                    placeOfBirth?: string;
                                };
                                nationalIdentification?: {
                                    /** @description Identity document or registration number (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode). One of ARNU, CCPT, RAID, DRLC, FIIN, TXID, SOCS, IDCD, LEIX, MISC (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    countryOfIssue?: string;
                                };
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to nationalIdentification.
                                 */
                                nationalIdenficiation?: {
                                    /** @description Identity document or registration number (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode). One of ARNU, CCPT, RAID, DRLC, FIIN, TXID, SOCS, IDCD, LEIX, MISC (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    countryOfIssue?: string;
                                };
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to nationalIdentification (the object, at person level).
                                 */
                                nationalIdentifier?: {
                                    /** @description Identity document or registration number (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode). One of ARNU, CCPT, RAID, DRLC, FIIN, TXID, SOCS, IDCD, LEIX, MISC (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    countryOfIssue?: string;
                                };
                                geographicAddress?: {
                                    /** @description Nature of the address (IVMS101 AddressTypeCode). One of HOME, BIZZ, GEOG (any letter case). */
                                    addressType: string;
                                    /** @description IVMS101 Max50Text. */
                                    department?: string;
                                    /** @description IVMS101 Max70Text. */
                                    subDepartment?: string;
                                    /** @description IVMS101 Max70Text. */
                                    streetName?: string;
                                    /** @description IVMS101 Max16Text. */
                                    buildingNumber?: string;
                                    /** @description IVMS101 Max35Text. */
                                    buildingName?: string;
                                    /** @description IVMS101 Max70Text. */
                                    floor?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postBox?: string;
                                    /** @description IVMS101 Max70Text. */
                                    room?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postCode?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townLocationName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    districtName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    countrySubDivision?: string;
                                    addressLine?: string[];
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    country: string;
                                }[];
                                /** @description Customer number at the VASP (IVMS101 Max50Text). */
                                customerIdentification?: string;
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to customerIdentification (the IVMS101 2020 name).
                                 */
                                customerNumber?: string;
                                /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                countryOfResidence?: string;
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to customerIdentification.
                                 */
                                customerIdenficiation?: string;
                            };
                            /** @description A legal person (IVMS101 LegalPerson), such as a corporate customer. */
                            legalPerson?: {
                                name: {
                                    nameIdentifier: {
                                        /** @description The name (IVMS101 Max100Text). */
                                        legalPersonName: string;
                                        /** @description Nature of the name (IVMS101 LegalPersonNameTypeCode). One of LEGL, SHRT, TRAD (any letter case). */
                                        legalPersonNameIdentifierType: string;
                                    }[];
                                    /** @description The name in local characters (IVMS101 LocalLegalPersonNameId). */
                                    localNameIdentifier?: {
                                        /** @description The name (IVMS101 Max100Text). */
                                        legalPersonName: string;
                                        /** @description Nature of the name (IVMS101 LegalPersonNameTypeCode). One of LEGL, SHRT, TRAD (any letter case). */
                                        legalPersonNameIdentifierType: string;
                                    }[];
                                    /** @description The name as it is pronounced (IVMS101 LocalLegalPersonNameId). */
                                    phoneticNameIdentifier?: {
                                        /** @description The name (IVMS101 Max100Text). */
                                        legalPersonName: string;
                                        /** @description Nature of the name (IVMS101 LegalPersonNameTypeCode). One of LEGL, SHRT, TRAD (any letter case). */
                                        legalPersonNameIdentifierType: string;
                                    }[];
                                };
                                geographicAddress?: {
                                    /** @description Nature of the address (IVMS101 AddressTypeCode). One of HOME, BIZZ, GEOG (any letter case). */
                                    addressType: string;
                                    /** @description IVMS101 Max50Text. */
                                    department?: string;
                                    /** @description IVMS101 Max70Text. */
                                    subDepartment?: string;
                                    /** @description IVMS101 Max70Text. */
                                    streetName?: string;
                                    /** @description IVMS101 Max16Text. */
                                    buildingNumber?: string;
                                    /** @description IVMS101 Max35Text. */
                                    buildingName?: string;
                                    /** @description IVMS101 Max70Text. */
                                    floor?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postBox?: string;
                                    /** @description IVMS101 Max70Text. */
                                    room?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postCode?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townLocationName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    districtName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    countrySubDivision?: string;
                                    addressLine?: string[];
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    country: string;
                                }[];
                                /** @description Customer number at the VASP (IVMS101 Max50Text). */
                                customerNumber?: string;
                                /**
                                 * @deprecated
                                 * @description Alternative spelling; normalised to customerNumber.
                                 */
                                customerIdentification?: string;
                                nationalIdentification?: {
                                    /** @description Registration number, tax number or LEI (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode, a legal person's kinds). One of RAID, MISC, LEIX, TXID (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description The register that issued the identifier, as its GLEIF code (RA000585, say). Required unless the identifier is an LEI; not given with an LEI. */
                                    registrationAuthority?: string;
                                    /** @description Not given for a legal person (IVMS101): its register says where. */
                                    countryOfIssue?: unknown;
                                };
                                /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                countryOfRegistration?: string;
                            };
                        }[];
                        /** @description The originator wallet addresses, each valid on the transaction's network (stored in the network's normal form). */
                        accountNumber: string[];
                    };
                    /** @description The receiver: name and wallet address. */
                    beneficiary: {
                        /** @description The beneficiary persons; each element is a `naturalPerson` or a `legalPerson` object. */
                        persons: {
                            /** @description A natural person (IVMS101 NaturalPerson). */
                            naturalPerson?: {
                                name: {
                                    nameIdentifier: {
                                        /** @description Family name, or the whole name when it cannot be split (IVMS101 Max100Text). */
                                        primaryIdentifier: string;
                                        /** @description Given names (IVMS101 Max100Text). */
                                        secondaryIdentifier?: string;
                                        /** @description Nature of the name (IVMS101 NaturalPersonNameTypeCode). One of LEGL, ALIA, BIRT, MAID, MISC (any letter case). */
                                        nameIdentifierType?: string;
                                        /** @description The IVMS101.2023 name of nameIdentifierType; either is accepted. */
                                        naturalPersonNameIdentifierType?: string;
                                    }[];
                                    /** @description The name in local characters (IVMS101 LocalNaturalPersonNameId), e.g. in its own script. */
                                    localNameIdentifier?: {
                                        /** @description Family name, or the whole name when it cannot be split (IVMS101 Max100Text). */
                                        primaryIdentifier: string;
                                        /** @description Given names (IVMS101 Max100Text). */
                                        secondaryIdentifier?: string;
                                        /** @description Nature of the name (IVMS101 NaturalPersonNameTypeCode). One of LEGL, ALIA, BIRT, MAID, MISC (any letter case). */
                                        nameIdentifierType?: string;
                                        /** @description The IVMS101.2023 name of nameIdentifierType; either is accepted. */
                                        naturalPersonNameIdentifierType?: string;
                                    }[];
                                    /** @description The name as it is pronounced (IVMS101 LocalNaturalPersonNameId). */
                                    phoneticNameIdentifier?: {
                                        /** @description Family name, or the whole name when it cannot be split (IVMS101 Max100Text). */
                                        primaryIdentifier: string;
                                        /** @description Given names (IVMS101 Max100Text). */
                                        secondaryIdentifier?: string;
                                        /** @description Nature of the name (IVMS101 NaturalPersonNameTypeCode). One of LEGL, ALIA, BIRT, MAID, MISC (any letter case). */
                                        nameIdentifierType?: string;
                                        /** @description The IVMS101.2023 name of nameIdentifierType; either is accepted. */
                                        naturalPersonNameIdentifierType?: string;
                                    }[];
                                };
                                dateAndPlaceOfBirth?: {
                                    /** @description Date of birth, YYYY-MM-DD: a real date from 1900-01-01 to yesterday (UTC). */
                                    dateOfBirth?: string;
                                    /** @description Town and country of birth (IVMS101 Max70Text). */
                                    placeOfBirth?: string;
                                };
                                nationalIdentification?: {
                                    /** @description Identity document or registration number (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode). One of ARNU, CCPT, RAID, DRLC, FIIN, TXID, SOCS, IDCD, LEIX, MISC (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    countryOfIssue?: string;
                                };
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to nationalIdentification.
                                 */
                                nationalIdenficiation?: {
                                    /** @description Identity document or registration number (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode). One of ARNU, CCPT, RAID, DRLC, FIIN, TXID, SOCS, IDCD, LEIX, MISC (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    countryOfIssue?: string;
                                };
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to nationalIdentification (the object, at person level).
                                 */
                                nationalIdentifier?: {
                                    /** @description Identity document or registration number (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode). One of ARNU, CCPT, RAID, DRLC, FIIN, TXID, SOCS, IDCD, LEIX, MISC (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    countryOfIssue?: string;
                                };
                                geographicAddress?: {
                                    /** @description Nature of the address (IVMS101 AddressTypeCode). One of HOME, BIZZ, GEOG (any letter case). */
                                    addressType: string;
                                    /** @description IVMS101 Max50Text. */
                                    department?: string;
                                    /** @description IVMS101 Max70Text. */
                                    subDepartment?: string;
                                    /** @description IVMS101 Max70Text. */
                                    streetName?: string;
                                    /** @description IVMS101 Max16Text. */
                                    buildingNumber?: string;
                                    /** @description IVMS101 Max35Text. */
                                    buildingName?: string;
                                    /** @description IVMS101 Max70Text. */
                                    floor?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postBox?: string;
                                    /** @description IVMS101 Max70Text. */
                                    room?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postCode?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townLocationName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    districtName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    countrySubDivision?: string;
                                    addressLine?: string[];
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    country: string;
                                }[];
                                /** @description Customer number at the VASP (IVMS101 Max50Text). */
                                customerIdentification?: string;
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to customerIdentification (the IVMS101 2020 name).
                                 */
                                customerNumber?: string;
                                /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                countryOfResidence?: string;
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to customerIdentification.
                                 */
                                customerIdenficiation?: string;
                            };
                            /** @description A legal person (IVMS101 LegalPerson), such as a corporate customer. */
                            legalPerson?: {
                                name: {
                                    nameIdentifier: {
                                        /** @description The name (IVMS101 Max100Text). */
                                        legalPersonName: string;
                                        /** @description Nature of the name (IVMS101 LegalPersonNameTypeCode). One of LEGL, SHRT, TRAD (any letter case). */
                                        legalPersonNameIdentifierType: string;
                                    }[];
                                    /** @description The name in local characters (IVMS101 LocalLegalPersonNameId). */
                                    localNameIdentifier?: {
                                        /** @description The name (IVMS101 Max100Text). */
                                        legalPersonName: string;
                                        /** @description Nature of the name (IVMS101 LegalPersonNameTypeCode). One of LEGL, SHRT, TRAD (any letter case). */
                                        legalPersonNameIdentifierType: string;
                                    }[];
                                    /** @description The name as it is pronounced (IVMS101 LocalLegalPersonNameId). */
                                    phoneticNameIdentifier?: {
                                        /** @description The name (IVMS101 Max100Text). */
                                        legalPersonName: string;
                                        /** @description Nature of the name (IVMS101 LegalPersonNameTypeCode). One of LEGL, SHRT, TRAD (any letter case). */
                                        legalPersonNameIdentifierType: string;
                                    }[];
                                };
                                geographicAddress?: {
                                    /** @description Nature of the address (IVMS101 AddressTypeCode). One of HOME, BIZZ, GEOG (any letter case). */
                                    addressType: string;
                                    /** @description IVMS101 Max50Text. */
                                    department?: string;
                                    /** @description IVMS101 Max70Text. */
                                    subDepartment?: string;
                                    /** @description IVMS101 Max70Text. */
                                    streetName?: string;
                                    /** @description IVMS101 Max16Text. */
                                    buildingNumber?: string;
                                    /** @description IVMS101 Max35Text. */
                                    buildingName?: string;
                                    /** @description IVMS101 Max70Text. */
                                    floor?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postBox?: string;
                                    /** @description IVMS101 Max70Text. */
                                    room?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postCode?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townLocationName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    districtName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    countrySubDivision?: string;
                                    addressLine?: string[];
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    country: string;
                                }[];
                                /** @description Customer number at the VASP (IVMS101 Max50Text). */
                                customerNumber?: string;
                                /**
                                 * @deprecated
                                 * @description Alternative spelling; normalised to customerNumber.
                                 */
                                customerIdentification?: string;
                                nationalIdentification?: {
                                    /** @description Registration number, tax number or LEI (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode, a legal person's kinds). One of RAID, MISC, LEIX, TXID (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description The register that issued the identifier, as its GLEIF code (RA000585, say). Required unless the identifier is an LEI; not given with an LEI. */
                                    registrationAuthority?: string;
                                    /** @description Not given for a legal person (IVMS101): its register says where. */
                                    countryOfIssue?: unknown;
                                };
                                /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                countryOfRegistration?: string;
                            };
                        }[];
                        /** @description The beneficiary wallet addresses, each valid on the transaction's network (stored in the network's normal form). */
                        accountNumber: string[];
                    };
                    /**
                     * Format: uuid
                     * @description UUID of the counterpart VASP (a uid of list_vasps).
                     */
                    beneficiary_vasp_id?: string;
                    /** @description Not in the spec: the beneficiary's Travel Address (ta…, lnurl1…) or TRP inquiry URL (https). When given, the inquiry goes there, whatever the directory says. */
                    beneficiary_travel_address?: string;
                    /** @description The API key, when it is not sent in the apikey header, the query or as the basic-auth username. */
                    apikey?: string;
                };
            };
        };
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": {
                     *         "valid": true,
                     *         "network": "eth",
                     *         "screening": {
                     *           "originator": {
                     *             "score": 10,
                     *             "tags": {
                     *               "new_wallet": true
                     *             }
                     *           },
                     *           "beneficiary": {
                     *             "score": 10,
                     *             "tags": {
                     *               "new_wallet": true
                     *             }
                     *           }
                     *         },
                     *         "threshold": [
                     *           {
                     *             "jurisdiction": "DE",
                     *             "currency": "EUR",
                     *             "threshold": "1000",
                     *             "result": "above",
                     *             "value": "2635",
                     *             "rate": "3100"
                     *           },
                     *           {
                     *             "jurisdiction": "CH",
                     *             "currency": "CHF",
                     *             "threshold": "1000",
                     *             "result": "unknown"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: components["schemas"]["CheckTxResult"];
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 invalid address. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedEncoding"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    travelruleTravelAddress: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "network": "eth",
                 *       "address": "0x80849C78924daa9AD2608B7C0080Df2BEF3Dc990"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Network symbol (the spec's table of 23). An unknown symbol gets error 5000.
                     * @enum {string}
                     */
                    network: "eth" | "bsc" | "polygon" | "avalanche" | "arb" | "op" | "bitcoin" | "litecoin" | "doge" | "trx" | "xrp" | "solana" | "ada" | "stellar" | "sui" | "ton" | "dot" | "apt" | "vet" | "algo" | "atom" | "xtz" | "eos";
                    address: string;
                    /** @description The API key, when it is not sent in the apikey header, the query or as the basic-auth username. */
                    apikey?: string;
                };
            };
        };
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": {
                     *         "travel_address": "ta3xNEaPkEe9EyerCBPPYAEEF9mMwM3bhdnHdsNCcZvNXxcAXysb4mhTiSTm3pDpeJqcujRJjWFZUNcpCxAcY5GkSgBFUCb7XvotdkTq5NTF7sPhN5fpvydTDz6a1vyNd1qB9qihQEY9ubFHYUDynocxQk3VZ9mm3mmQounemtaLToU67atLCJMuKMrF7f9",
                     *         "url": "https://tollgate.vasp.example/trp/v3/inquiries/fb846422cf28e918de6ae4e0e59a47cda5817d5ad2a28ff8pv7DbIzasdQT3hltcd5tr4gLdwXhFX5H3fbFLlJ_Phw",
                     *         "network": "eth",
                     *         "address": "0x80849c78924daa9ad2608b7c0080df2bef3dc990"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: components["schemas"]["TravelAddress"];
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 invalid address. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedEncoding"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    travelruleTxStatus: {
        parameters: {
            query: {
                /**
                 * @description The caller's reference of the transaction (at most 255 characters).
                 * @example wd-2025-000142
                 */
                transaction_ref: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": {
                     *         "transaction_ref": "wd-2025-000142",
                     *         "direction": "outgoing",
                     *         "status": "COMPLETED",
                     *         "asset": "ETH",
                     *         "network": "eth",
                     *         "amount": "0.85",
                     *         "tx_hash": "0xb111665a061fe55935e9fe23406d6e1b4d5a6bd596207c35dff194a936207dda",
                     *         "counterparty_vasp_id": "2b548b81-d088-4b46-8e91-636d14a6c191",
                     *         "counterparty_protocol": "email",
                     *         "counterparty_reason": null,
                     *         "counterparty_stated_name": null,
                     *         "counterparty_stated_lei": null,
                     *         "counterparty_transliteration": null,
                     *         "beneficiary_address": "0xf29047aea3d07514a7ead2baa9bd036d33065cfd",
                     *         "beneficiary_address_differs": false,
                     *         "created_at": "2025-03-14T10:02:17.431Z",
                     *         "updated_at": "2025-03-14T13:48:05.902Z",
                     *         "history": [
                     *           {
                     *             "from_status": null,
                     *             "status": "CREATED",
                     *             "actor_type": "api_key",
                     *             "at": "2025-03-14T10:02:17.433Z"
                     *           },
                     *           {
                     *             "from_status": "CREATED",
                     *             "status": "SCORE",
                     *             "actor_type": "system",
                     *             "at": "2025-03-14T10:02:17.436Z"
                     *           },
                     *           {
                     *             "from_status": "SCORE",
                     *             "status": "PENDING",
                     *             "actor_type": "system",
                     *             "at": "2025-03-14T10:02:17.440Z"
                     *           },
                     *           {
                     *             "from_status": "PENDING",
                     *             "status": "OTHER_VASP_PENDING",
                     *             "actor_type": "operator",
                     *             "at": "2025-03-14T10:19:42.118Z"
                     *           },
                     *           {
                     *             "from_status": "OTHER_VASP_PENDING",
                     *             "status": "OTHER_VASP_APPROVED",
                     *             "actor_type": "operator",
                     *             "at": "2025-03-14T13:31:09.675Z"
                     *           },
                     *           {
                     *             "from_status": "OTHER_VASP_APPROVED",
                     *             "status": "WAITING_TX_HASH",
                     *             "actor_type": "system",
                     *             "at": "2025-03-14T13:31:09.679Z"
                     *           },
                     *           {
                     *             "from_status": "WAITING_TX_HASH",
                     *             "status": "COMPLETED",
                     *             "actor_type": "api_key",
                     *             "at": "2025-03-14T13:48:05.902Z"
                     *           }
                     *         ],
                     *         "messages": [
                     *           {
                     *             "kind": "email_inquiry",
                     *             "status": "sent",
                     *             "attempts": 1,
                     *             "last_status": null,
                     *             "last_error": null,
                     *             "sent_at": "2025-03-14T10:19:43.260Z"
                     *           },
                     *           {
                     *             "kind": "email_tx_hash",
                     *             "status": "sent",
                     *             "attempts": 1,
                     *             "last_status": null,
                     *             "last_error": null,
                     *             "sent_at": "2025-03-14T13:48:06.514Z"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: components["schemas"]["TxStatusRecord"];
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5003 nothing of this API key at that address or reference. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    travelruleSendTxHash: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "transaction_ref": "wd-2025-000142",
                 *       "transaction_hash": "0xb111665a061fe55935e9fe23406d6e1b4d5a6bd596207c35dff194a936207dda"
                 *     }
                 */
                "application/json": {
                    /** @description The caller's reference of the transaction (at most 255 characters). */
                    transaction_ref: string;
                    transaction_hash: string;
                    /** @description The API key, when it is not sent in the apikey header, the query or as the basic-auth username. */
                    apikey?: string;
                };
            };
        };
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": null
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: null;
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5003 nothing of this API key at that address or reference. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedEncoding"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    travelruleListVasps: {
        parameters: {
            query?: {
                /**
                 * @description Page number, from 1.
                 * @example 1
                 */
                page?: number;
                /**
                 * @description Items per page, 1 to 100.
                 * @example 10
                 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": [
                     *         {
                     *           "uid": "3d7f52c1-8a4e-4b0f-9c61-2f5e8d9a7b40",
                     *           "name": "Harbor Exchange",
                     *           "legal_name": null,
                     *           "country": null,
                     *           "website": "https://harbor.example"
                     *         },
                     *         {
                     *           "uid": "2b548b81-d088-4b46-8e91-636d14a6c191",
                     *           "name": "Northwind Digital Assets",
                     *           "legal_name": "Northwind Digital Assets GmbH",
                     *           "country": "DE",
                     *           "website": "https://northwind.example"
                     *         }
                     *       ],
                     *       "page_count": 1
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: components["schemas"]["VaspRecord"][];
                        page_count: number;
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    travelruleSendAddress: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "transaction_ref": "trp-418836c0-62f5-4ef4-819c-1a97dbaff4de",
                 *       "address": "0x95b47f723Fc7209bFC04a91c66CA1705d1dCDF84"
                 *     }
                 */
                "application/json": {
                    /** @description The caller's reference of the transaction (at most 255 characters). */
                    transaction_ref: string;
                    address: string;
                    /** @description The API key, when it is not sent in the apikey header, the query or as the basic-auth username. */
                    apikey?: string;
                };
            };
        };
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": null
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: null;
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 invalid address; 5003 nothing of this API key at that address or reference. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedEncoding"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    travelruleReceiveTxWithoutProtocol: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "transaction_ref": "dep-2025-000388",
                 *       "transaction_asset": "ETH",
                 *       "transaction_network": "eth",
                 *       "transaction_amount": "2.4",
                 *       "transaction_asset_decimals": "18",
                 *       "originator": {
                 *         "persons": [
                 *           {
                 *             "legalPerson": {
                 *               "name": {
                 *                 "nameIdentifier": [
                 *                   {
                 *                     "legalPersonName": "Sampletown Trading Ltd",
                 *                     "legalPersonNameIdentifierType": "LEGL"
                 *                   }
                 *                 ]
                 *               },
                 *               "nationalIdentification": {
                 *                 "nationalIdentifier": "12345678",
                 *                 "nationalIdentifierType": "RAID",
                 *                 "registrationAuthority": "RA000585"
                 *               },
                 *               "countryOfRegistration": "GB"
                 *             }
                 *           }
                 *         ],
                 *         "accountNumber": [
                 *           "0x0AD7818f5562D699B785f6F810e7A8f3d28D5cBf"
                 *         ]
                 *       },
                 *       "beneficiary": {
                 *         "persons": [
                 *           {
                 *             "naturalPerson": {
                 *               "name": {
                 *                 "nameIdentifier": [
                 *                   {
                 *                     "primaryIdentifier": "Doe",
                 *                     "secondaryIdentifier": "Jane",
                 *                     "nameIdentifierType": "LEGL"
                 *                   }
                 *                 ]
                 *               }
                 *             }
                 *           }
                 *         ],
                 *         "accountNumber": [
                 *           "0xd350aD06b41A26644847C869042E908efdE936b8"
                 *         ]
                 *       },
                 *       "transaction_hash": "0x719d3da5898cdccf2aa829afaa2494ce65506f86fab5f227324465cd445942a1",
                 *       "created_at": "2025-03-14T08:15:00Z"
                 *     }
                 */
                "application/json": {
                    /** @description The caller's reference of the transaction (at most 255 characters). */
                    transaction_ref: string;
                    /** @description Asset symbol (ETH, BTC, USDT, …), kept as sent; compared case-insensitively. */
                    transaction_asset: string;
                    /**
                     * @description Network symbol. When omitted, derived from the first originator wallet address and the asset (see the endpoint description).
                     * @enum {string}
                     */
                    transaction_network?: "eth" | "bsc" | "polygon" | "avalanche" | "arb" | "op" | "bitcoin" | "litecoin" | "doge" | "trx" | "xrp" | "solana" | "ada" | "stellar" | "sui" | "ton" | "dot" | "apt" | "vet" | "algo" | "atom" | "xtz" | "eos";
                    /** @description Amount in whole units of the asset, a decimal string with at most transaction_asset_decimals fractional digits. */
                    transaction_amount: string;
                    /** @description Decimals of the asset, "0" to "36". */
                    transaction_asset_decimals: string;
                    /** @description The sender: name, wallet address, and at least one of date of birth, national identification, geographic address, customer number. */
                    originator: {
                        /** @description The originator persons; each element is a `naturalPerson` or a `legalPerson` object. */
                        persons: {
                            /** @description A natural person (IVMS101 NaturalPerson). */
                            naturalPerson?: {
                                name: {
                                    nameIdentifier: {
                                        /** @description Family name, or the whole name when it cannot be split (IVMS101 Max100Text). */
                                        primaryIdentifier: string;
                                        /** @description Given names (IVMS101 Max100Text). */
                                        secondaryIdentifier?: string;
                                        /** @description Nature of the name (IVMS101 NaturalPersonNameTypeCode). One of LEGL, ALIA, BIRT, MAID, MISC (any letter case). */
                                        nameIdentifierType?: string;
                                        /** @description The IVMS101.2023 name of nameIdentifierType; either is accepted. */
                                        naturalPersonNameIdentifierType?: string;
                                    }[];
                                    /** @description The name in local characters (IVMS101 LocalNaturalPersonNameId), e.g. in its own script. */
                                    localNameIdentifier?: {
                                        /** @description Family name, or the whole name when it cannot be split (IVMS101 Max100Text). */
                                        primaryIdentifier: string;
                                        /** @description Given names (IVMS101 Max100Text). */
                                        secondaryIdentifier?: string;
                                        /** @description Nature of the name (IVMS101 NaturalPersonNameTypeCode). One of LEGL, ALIA, BIRT, MAID, MISC (any letter case). */
                                        nameIdentifierType?: string;
                                        /** @description The IVMS101.2023 name of nameIdentifierType; either is accepted. */
                                        naturalPersonNameIdentifierType?: string;
                                    }[];
                                    /** @description The name as it is pronounced (IVMS101 LocalNaturalPersonNameId). */
                                    phoneticNameIdentifier?: {
                                        /** @description Family name, or the whole name when it cannot be split (IVMS101 Max100Text). */
                                        primaryIdentifier: string;
                                        /** @description Given names (IVMS101 Max100Text). */
                                        secondaryIdentifier?: string;
                                        /** @description Nature of the name (IVMS101 NaturalPersonNameTypeCode). One of LEGL, ALIA, BIRT, MAID, MISC (any letter case). */
                                        nameIdentifierType?: string;
                                        /** @description The IVMS101.2023 name of nameIdentifierType; either is accepted. */
                                        naturalPersonNameIdentifierType?: string;
                                    }[];
                                };
                                dateAndPlaceOfBirth?: {
                                    /** @description Date of birth, YYYY-MM-DD: a real date from 1900-01-01 to yesterday (UTC). */
                                    dateOfBirth?: string;
                                    /** @description Town and country of birth (IVMS101 Max70Text). */
                                    placeOfBirth?: string;
                                };
                                nationalIdentification?: {
                                    /** @description Identity document or registration number (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode). One of ARNU, CCPT, RAID, DRLC, FIIN, TXID, SOCS, IDCD, LEIX, MISC (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    countryOfIssue?: string;
                                };
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to nationalIdentification.
                                 */
                                nationalIdenficiation?: {
                                    /** @description Identity document or registration number (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode). One of ARNU, CCPT, RAID, DRLC, FIIN, TXID, SOCS, IDCD, LEIX, MISC (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    countryOfIssue?: string;
                                };
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to nationalIdentification (the object, at person level).
                                 */
                                nationalIdentifier?: {
                                    /** @description Identity document or registration number (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode). One of ARNU, CCPT, RAID, DRLC, FIIN, TXID, SOCS, IDCD, LEIX, MISC (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    countryOfIssue?: string;
                                };
                                geographicAddress?: {
                                    /** @description Nature of the address (IVMS101 AddressTypeCode). One of HOME, BIZZ, GEOG (any letter case). */
                                    addressType: string;
                                    /** @description IVMS101 Max50Text. */
                                    department?: string;
                                    /** @description IVMS101 Max70Text. */
                                    subDepartment?: string;
                                    /** @description IVMS101 Max70Text. */
                                    streetName?: string;
                                    /** @description IVMS101 Max16Text. */
                                    buildingNumber?: string;
                                    /** @description IVMS101 Max35Text. */
                                    buildingName?: string;
                                    /** @description IVMS101 Max70Text. */
                                    floor?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postBox?: string;
                                    /** @description IVMS101 Max70Text. */
                                    room?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postCode?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townLocationName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    districtName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    countrySubDivision?: string;
                                    addressLine?: string[];
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    country: string;
                                }[];
                                /** @description Customer number at the VASP (IVMS101 Max50Text). */
                                customerIdentification?: string;
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to customerIdentification (the IVMS101 2020 name).
                                 */
                                customerNumber?: string;
                                /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                countryOfResidence?: string;
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to customerIdentification.
                                 */
                                customerIdenficiation?: string;
                            };
                            /** @description A legal person (IVMS101 LegalPerson), such as a corporate customer. */
                            legalPerson?: {
                                name: {
                                    nameIdentifier: {
                                        /** @description The name (IVMS101 Max100Text). */
                                        legalPersonName: string;
                                        /** @description Nature of the name (IVMS101 LegalPersonNameTypeCode). One of LEGL, SHRT, TRAD (any letter case). */
                                        legalPersonNameIdentifierType: string;
                                    }[];
                                    /** @description The name in local characters (IVMS101 LocalLegalPersonNameId). */
                                    localNameIdentifier?: {
                                        /** @description The name (IVMS101 Max100Text). */
                                        legalPersonName: string;
                                        /** @description Nature of the name (IVMS101 LegalPersonNameTypeCode). One of LEGL, SHRT, TRAD (any letter case). */
                                        legalPersonNameIdentifierType: string;
                                    }[];
                                    /** @description The name as it is pronounced (IVMS101 LocalLegalPersonNameId). */
                                    phoneticNameIdentifier?: {
                                        /** @description The name (IVMS101 Max100Text). */
                                        legalPersonName: string;
                                        /** @description Nature of the name (IVMS101 LegalPersonNameTypeCode). One of LEGL, SHRT, TRAD (any letter case). */
                                        legalPersonNameIdentifierType: string;
                                    }[];
                                };
                                geographicAddress?: {
                                    /** @description Nature of the address (IVMS101 AddressTypeCode). One of HOME, BIZZ, GEOG (any letter case). */
                                    addressType: string;
                                    /** @description IVMS101 Max50Text. */
                                    department?: string;
                                    /** @description IVMS101 Max70Text. */
                                    subDepartment?: string;
                                    /** @description IVMS101 Max70Text. */
                                    streetName?: string;
                                    /** @description IVMS101 Max16Text. */
                                    buildingNumber?: string;
                                    /** @description IVMS101 Max35Text. */
                                    buildingName?: string;
                                    /** @description IVMS101 Max70Text. */
                                    floor?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postBox?: string;
                                    /** @description IVMS101 Max70Text. */
                                    room?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postCode?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townLocationName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    districtName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    countrySubDivision?: string;
                                    addressLine?: string[];
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    country: string;
                                }[];
                                /** @description Customer number at the VASP (IVMS101 Max50Text). */
                                customerNumber?: string;
                                /**
                                 * @deprecated
                                 * @description Alternative spelling; normalised to customerNumber.
                                 */
                                customerIdentification?: string;
                                nationalIdentification?: {
                                    /** @description Registration number, tax number or LEI (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode, a legal person's kinds). One of RAID, MISC, LEIX, TXID (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description The register that issued the identifier, as its GLEIF code (RA000585, say). Required unless the identifier is an LEI; not given with an LEI. */
                                    registrationAuthority?: string;
                                    /** @description Not given for a legal person (IVMS101): its register says where. */
                                    countryOfIssue?: unknown;
                                };
                                /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                countryOfRegistration?: string;
                            };
                        }[];
                        /** @description The originator wallet addresses, each valid on the transaction's network (stored in the network's normal form). */
                        accountNumber: string[];
                    };
                    /** @description The receiver: name and wallet address. */
                    beneficiary: {
                        /** @description The beneficiary persons; each element is a `naturalPerson` or a `legalPerson` object. */
                        persons: {
                            /** @description A natural person (IVMS101 NaturalPerson). */
                            naturalPerson?: {
                                name: {
                                    nameIdentifier: {
                                        /** @description Family name, or the whole name when it cannot be split (IVMS101 Max100Text). */
                                        primaryIdentifier: string;
                                        /** @description Given names (IVMS101 Max100Text). */
                                        secondaryIdentifier?: string;
                                        /** @description Nature of the name (IVMS101 NaturalPersonNameTypeCode). One of LEGL, ALIA, BIRT, MAID, MISC (any letter case). */
                                        nameIdentifierType?: string;
                                        /** @description The IVMS101.2023 name of nameIdentifierType; either is accepted. */
                                        naturalPersonNameIdentifierType?: string;
                                    }[];
                                    /** @description The name in local characters (IVMS101 LocalNaturalPersonNameId), e.g. in its own script. */
                                    localNameIdentifier?: {
                                        /** @description Family name, or the whole name when it cannot be split (IVMS101 Max100Text). */
                                        primaryIdentifier: string;
                                        /** @description Given names (IVMS101 Max100Text). */
                                        secondaryIdentifier?: string;
                                        /** @description Nature of the name (IVMS101 NaturalPersonNameTypeCode). One of LEGL, ALIA, BIRT, MAID, MISC (any letter case). */
                                        nameIdentifierType?: string;
                                        /** @description The IVMS101.2023 name of nameIdentifierType; either is accepted. */
                                        naturalPersonNameIdentifierType?: string;
                                    }[];
                                    /** @description The name as it is pronounced (IVMS101 LocalNaturalPersonNameId). */
                                    phoneticNameIdentifier?: {
                                        /** @description Family name, or the whole name when it cannot be split (IVMS101 Max100Text). */
                                        primaryIdentifier: string;
                                        /** @description Given names (IVMS101 Max100Text). */
                                        secondaryIdentifier?: string;
                                        /** @description Nature of the name (IVMS101 NaturalPersonNameTypeCode). One of LEGL, ALIA, BIRT, MAID, MISC (any letter case). */
                                        nameIdentifierType?: string;
                                        /** @description The IVMS101.2023 name of nameIdentifierType; either is accepted. */
                                        naturalPersonNameIdentifierType?: string;
                                    }[];
                                };
                                dateAndPlaceOfBirth?: {
                                    /** @description Date of birth, YYYY-MM-DD: a real date from 1900-01-01 to yesterday (UTC). */
                                    dateOfBirth?: string;
                                    /** @description Town and country of birth (IVMS101 Max70Text). */
                                    placeOfBirth?: string;
                                };
                                nationalIdentification?: {
                                    /** @description Identity document or registration number (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode). One of ARNU, CCPT, RAID, DRLC, FIIN, TXID, SOCS, IDCD, LEIX, MISC (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    countryOfIssue?: string;
                                };
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to nationalIdentification.
                                 */
                                nationalIdenficiation?: {
                                    /** @description Identity document or registration number (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode). One of ARNU, CCPT, RAID, DRLC, FIIN, TXID, SOCS, IDCD, LEIX, MISC (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    countryOfIssue?: string;
                                };
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to nationalIdentification (the object, at person level).
                                 */
                                nationalIdentifier?: {
                                    /** @description Identity document or registration number (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode). One of ARNU, CCPT, RAID, DRLC, FIIN, TXID, SOCS, IDCD, LEIX, MISC (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    countryOfIssue?: string;
                                };
                                geographicAddress?: {
                                    /** @description Nature of the address (IVMS101 AddressTypeCode). One of HOME, BIZZ, GEOG (any letter case). */
                                    addressType: string;
                                    /** @description IVMS101 Max50Text. */
                                    department?: string;
                                    /** @description IVMS101 Max70Text. */
                                    subDepartment?: string;
                                    /** @description IVMS101 Max70Text. */
                                    streetName?: string;
                                    /** @description IVMS101 Max16Text. */
                                    buildingNumber?: string;
                                    /** @description IVMS101 Max35Text. */
                                    buildingName?: string;
                                    /** @description IVMS101 Max70Text. */
                                    floor?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postBox?: string;
                                    /** @description IVMS101 Max70Text. */
                                    room?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postCode?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townLocationName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    districtName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    countrySubDivision?: string;
                                    addressLine?: string[];
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    country: string;
                                }[];
                                /** @description Customer number at the VASP (IVMS101 Max50Text). */
                                customerIdentification?: string;
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to customerIdentification (the IVMS101 2020 name).
                                 */
                                customerNumber?: string;
                                /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                countryOfResidence?: string;
                                /**
                                 * @deprecated
                                 * @description Alternative spelling that occurs in the interface; normalised to customerIdentification.
                                 */
                                customerIdenficiation?: string;
                            };
                            /** @description A legal person (IVMS101 LegalPerson), such as a corporate customer. */
                            legalPerson?: {
                                name: {
                                    nameIdentifier: {
                                        /** @description The name (IVMS101 Max100Text). */
                                        legalPersonName: string;
                                        /** @description Nature of the name (IVMS101 LegalPersonNameTypeCode). One of LEGL, SHRT, TRAD (any letter case). */
                                        legalPersonNameIdentifierType: string;
                                    }[];
                                    /** @description The name in local characters (IVMS101 LocalLegalPersonNameId). */
                                    localNameIdentifier?: {
                                        /** @description The name (IVMS101 Max100Text). */
                                        legalPersonName: string;
                                        /** @description Nature of the name (IVMS101 LegalPersonNameTypeCode). One of LEGL, SHRT, TRAD (any letter case). */
                                        legalPersonNameIdentifierType: string;
                                    }[];
                                    /** @description The name as it is pronounced (IVMS101 LocalLegalPersonNameId). */
                                    phoneticNameIdentifier?: {
                                        /** @description The name (IVMS101 Max100Text). */
                                        legalPersonName: string;
                                        /** @description Nature of the name (IVMS101 LegalPersonNameTypeCode). One of LEGL, SHRT, TRAD (any letter case). */
                                        legalPersonNameIdentifierType: string;
                                    }[];
                                };
                                geographicAddress?: {
                                    /** @description Nature of the address (IVMS101 AddressTypeCode). One of HOME, BIZZ, GEOG (any letter case). */
                                    addressType: string;
                                    /** @description IVMS101 Max50Text. */
                                    department?: string;
                                    /** @description IVMS101 Max70Text. */
                                    subDepartment?: string;
                                    /** @description IVMS101 Max70Text. */
                                    streetName?: string;
                                    /** @description IVMS101 Max16Text. */
                                    buildingNumber?: string;
                                    /** @description IVMS101 Max35Text. */
                                    buildingName?: string;
                                    /** @description IVMS101 Max70Text. */
                                    floor?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postBox?: string;
                                    /** @description IVMS101 Max70Text. */
                                    room?: string;
                                    /** @description IVMS101 Max16Text. */
                                    postCode?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    townLocationName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    districtName?: string;
                                    /** @description IVMS101 Max35Text. */
                                    countrySubDivision?: string;
                                    addressLine?: string[];
                                    /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                    country: string;
                                }[];
                                /** @description Customer number at the VASP (IVMS101 Max50Text). */
                                customerNumber?: string;
                                /**
                                 * @deprecated
                                 * @description Alternative spelling; normalised to customerNumber.
                                 */
                                customerIdentification?: string;
                                nationalIdentification?: {
                                    /** @description Registration number, tax number or LEI (IVMS101 Max35Text). */
                                    nationalIdentifier?: string;
                                    /** @description Kind of identifier (IVMS101 NationalIdentifierTypeCode, a legal person's kinds). One of RAID, MISC, LEIX, TXID (any letter case). */
                                    nationalIdentifierType?: string;
                                    /** @description The register that issued the identifier, as its GLEIF code (RA000585, say). Required unless the identifier is an LEI; not given with an LEI. */
                                    registrationAuthority?: string;
                                    /** @description Not given for a legal person (IVMS101): its register says where. */
                                    countryOfIssue?: unknown;
                                };
                                /** @description ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case. */
                                countryOfRegistration?: string;
                            };
                        }[];
                        /** @description The beneficiary wallet addresses, each valid on the transaction's network (stored in the network's normal form). */
                        accountNumber: string[];
                    };
                    /** @description On-chain transaction hash, in the network's format (EVM: 0x and 64 hex digits; Bitcoin-family: 64 hex digits). */
                    transaction_hash: string;
                    /**
                     * Format: date-time
                     * @description When the transaction happened, ISO 8601 with Z or an offset; stored in UTC.
                     */
                    created_at: string;
                    /** @description Not accepted here (the sender has no protocol). */
                    beneficiary_vasp_id?: unknown;
                    /** @description The API key, when it is not sent in the apikey header, the query or as the basic-auth username. */
                    apikey?: string;
                };
            };
        };
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": "APPROVED"
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        /** @constant */
                        data: "APPROVED";
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 invalid address. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedEncoding"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getTravelruleWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": {
                     *         "url": "https://backend.example.com/hooks/travel-rule",
                     *         "source": "key"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: {
                            url: string | null;
                            source: ("key" | "default") | null;
                        };
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    postTravelruleWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://backend.example.com/hooks/travel-rule"
                 *     }
                 */
                "application/json": {
                    /** @description http(s) URL that receives the webhooks; must not resolve to a private, loopback or link-local address unless the operator allows that range. */
                    url: string;
                    /** @description The API key, when it is not sent in the apikey header, the query or as the basic-auth username. */
                    apikey?: string;
                };
            };
        };
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": null
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: null;
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5004 invalid webhook URL (not http(s), or it resolves to a forbidden address). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5004,
                     *       "status": 5004,
                     *       "message": "Invalid webhook URL (not http(s), or it resolves to a forbidden address)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedEncoding"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteTravelruleWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": null
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: null;
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5003 nothing of this API key at that address or reference. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5003,
                     *       "status": 5003,
                     *       "message": "Nothing of this API key at that address or reference."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    webhookDeliveries: {
        parameters: {
            query?: {
                /** @description Wallet address, exactly as on its chain (no surrounding spaces). EVM: 0x and 40 hex digits, a mixed-case one with a valid EIP-55 checksum; Bitcoin-family: base58check or bech32/bech32m, checksum verified. */
                address?: string;
                /**
                 * @description Kind of webhook: stream, aml, travelrule, test (aml: live AML).
                 * @example aml
                 */
                kind?: "stream" | "aml" | "travelrule" | "test";
                /** @description The event's id, or its webhook-id (msg_<id>) as the receiver saw it. */
                event_id?: string;
                /** @description succeeded: answered 2xx; failed: any other answer, or none. */
                status?: "succeeded" | "failed";
                /** @description ISO 8601 time with a zone (Z or an offset), e.g. 2025-03-14T06:00:00Z. */
                since?: string;
                /**
                 * @description Page number, from 1.
                 * @example 1
                 */
                page?: number;
                /**
                 * @description Items per page, 1 to 100.
                 * @example 10
                 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": [
                     *         {
                     *           "event_id": "0f8a6c2e-4b1d-4c3a-9e57-2d6b8f1a7c90",
                     *           "webhook_id": "msg_0f8a6c2e-4b1d-4c3a-9e57-2d6b8f1a7c90",
                     *           "kind": "aml",
                     *           "address": "0x5fa78c6c209eec0c5c6bdbfb1bd48e65291b76aa",
                     *           "network": "eth",
                     *           "tx_hash": "0x6f6a1c8b0e2d4f7a9b3c5d7e9f1a2b4c6d8e0f1a3b5c7d9e1f2a4b6c8d0e2f4a",
                     *           "sequence": 3,
                     *           "event_status": "delivered",
                     *           "attempt": 2,
                     *           "attempted_at": "2025-03-14T09:27:41.112Z",
                     *           "url": "https://backend.example.com/hooks/aml",
                     *           "succeeded": true,
                     *           "status_code": 200,
                     *           "duration_ms": 84,
                     *           "error": null,
                     *           "response": "{\"ok\":true}"
                     *         }
                     *       ],
                     *       "page_count": 1
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: components["schemas"]["DeliveryAttempt"][];
                        page_count: number;
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 invalid address. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    webhookRedeliver: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event_id": "msg_0f8a6c2e-4b1d-4c3a-9e57-2d6b8f1a7c90"
                 *     }
                 */
                "application/json": {
                    /** @description The event's id, or its webhook-id (msg_<id>) as the receiver saw it. */
                    event_id: string;
                    /** @description The API key, when it is not sent in the apikey header, the query or as the basic-auth username. */
                    apikey?: string;
                };
            };
        };
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": {
                     *         "event_id": "0f8a6c2e-4b1d-4c3a-9e57-2d6b8f1a7c90",
                     *         "status": "pending"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: {
                            event_id: string;
                            /**
                             * @description Queued: due now.
                             * @constant
                             */
                            status: "pending";
                        };
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5003 nothing of this API key at that address or reference. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedEncoding"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    webhookRecover: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "since": "2025-03-14T06:00:00Z",
                 *       "kind": "stream"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: date-time
                     * @description ISO 8601 time with a zone (Z or an offset), e.g. 2025-03-14T06:00:00Z.
                     */
                    since: string;
                    /** @description Wallet address, exactly as on its chain (no surrounding spaces). EVM: 0x and 40 hex digits, a mixed-case one with a valid EIP-55 checksum; Bitcoin-family: base58check or bech32/bech32m, checksum verified. */
                    address?: string;
                    /**
                     * @description Kind of webhook: stream, aml, travelrule (aml: live AML).
                     * @enum {string}
                     */
                    kind?: "stream" | "aml" | "travelrule";
                    /** @description The API key, when it is not sent in the apikey header, the query or as the basic-auth username. */
                    apikey?: string;
                };
            };
        };
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": {
                     *         "requeued": 37,
                     *         "more": false
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: {
                            /** @description Events queued again. */
                            requeued: number;
                            /** @description Events are left: call again. */
                            more: boolean;
                        };
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 invalid address. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedEncoding"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    webhookTest: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "address": "0x9E7454285FBBfc8c034bad9Cb4cBfba6254D7D87"
                 *     }
                 */
                "application/json": {
                    /** @description Wallet address, exactly as on its chain (no surrounding spaces). EVM: 0x and 40 hex digits, a mixed-case one with a valid EIP-55 checksum; Bitcoin-family: base58check or bech32/bech32m, checksum verified. */
                    address?: string;
                    /**
                     * @description Kind of webhook: stream, aml, travelrule (aml: live AML).
                     * @enum {string}
                     */
                    kind?: "stream" | "aml" | "travelrule";
                    /** @description http(s) URL that receives the webhooks; must not resolve to a private, loopback or link-local address unless the operator allows that range. */
                    url?: string;
                    /** @description The API key, when it is not sent in the apikey header, the query or as the basic-auth username. */
                    apikey?: string;
                };
            };
        };
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": {
                     *         "event_id": "0f8a6c2e-4b1d-4c3a-9e57-2d6b8f1a7c90",
                     *         "webhook_id": "msg_0f8a6c2e-4b1d-4c3a-9e57-2d6b8f1a7c90",
                     *         "url": "https://backend.example.com/hooks/stream",
                     *         "kind": "stream"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: {
                            event_id: string;
                            /** @description The test webhook's webhook-id. */
                            webhook_id: string;
                            url: string;
                            /** @enum {string} */
                            kind: "stream" | "aml" | "travelrule";
                        };
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 invalid address; 5003 nothing of this API key at that address or reference; 5004 invalid webhook URL (not http(s), or it resolves to a forbidden address). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedEncoding"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    streamPause: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "address": "0x9E7454285FBBfc8c034bad9Cb4cBfba6254D7D87"
                 *     }
                 */
                "application/json": {
                    /** @description Wallet address, exactly as on its chain (no surrounding spaces). EVM: 0x and 40 hex digits, a mixed-case one with a valid EIP-55 checksum; Bitcoin-family: base58check or bech32/bech32m, checksum verified. */
                    address: string;
                    /** @description The API key, when it is not sent in the apikey header, the query or as the basic-auth username. */
                    apikey?: string;
                };
            };
        };
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": {
                     *         "address": "0x9e7454285fbbfc8c034bad9cb4cbfba6254d7d87",
                     *         "paused": true,
                     *         "released": 0
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: {
                            address: string;
                            paused: boolean;
                            /** @description Events kept during the pause and due now (a resume); 0 for a pause. */
                            released: number;
                        };
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 invalid address; 5003 nothing of this API key at that address or reference. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedEncoding"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    streamResume: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "address": "0x9E7454285FBBfc8c034bad9Cb4cBfba6254D7D87"
                 *     }
                 */
                "application/json": {
                    /** @description Wallet address, exactly as on its chain (no surrounding spaces). EVM: 0x and 40 hex digits, a mixed-case one with a valid EIP-55 checksum; Bitcoin-family: base58check or bech32/bech32m, checksum verified. */
                    address: string;
                    /** @description The API key, when it is not sent in the apikey header, the query or as the basic-auth username. */
                    apikey?: string;
                };
            };
        };
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": {
                     *         "address": "0x9e7454285fbbfc8c034bad9cb4cbfba6254d7d87",
                     *         "paused": false,
                     *         "released": 12
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: {
                            address: string;
                            paused: boolean;
                            /** @description Events kept during the pause and due now (a resume); 0 for a pause. */
                            released: number;
                        };
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 invalid address; 5003 nothing of this API key at that address or reference. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedEncoding"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    liveamlPause: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "address": "0x5fA78c6C209EEc0c5C6BDBfb1bd48e65291b76AA"
                 *     }
                 */
                "application/json": {
                    /** @description Wallet address, exactly as on its chain (no surrounding spaces). EVM: 0x and 40 hex digits, a mixed-case one with a valid EIP-55 checksum; Bitcoin-family: base58check or bech32/bech32m, checksum verified. */
                    address: string;
                    /** @description The API key, when it is not sent in the apikey header, the query or as the basic-auth username. */
                    apikey?: string;
                };
            };
        };
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": {
                     *         "address": "0x5fa78c6c209eec0c5c6bdbfb1bd48e65291b76aa",
                     *         "paused": true,
                     *         "released": 0
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: {
                            address: string;
                            paused: boolean;
                            /** @description Events kept during the pause and due now (a resume); 0 for a pause. */
                            released: number;
                        };
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 invalid address; 5003 nothing of this API key at that address or reference. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedEncoding"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    liveamlResume: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "address": "0x5fA78c6C209EEc0c5C6BDBfb1bd48e65291b76AA"
                 *     }
                 */
                "application/json": {
                    /** @description Wallet address, exactly as on its chain (no surrounding spaces). EVM: 0x and 40 hex digits, a mixed-case one with a valid EIP-55 checksum; Bitcoin-family: base58check or bech32/bech32m, checksum verified. */
                    address: string;
                    /** @description The API key, when it is not sent in the apikey header, the query or as the basic-auth username. */
                    apikey?: string;
                };
            };
        };
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": {
                     *         "address": "0x5fa78c6c209eec0c5c6bdbfb1bd48e65291b76aa",
                     *         "paused": false,
                     *         "released": 12
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: {
                            address: string;
                            paused: boolean;
                            /** @description Events kept during the pause and due now (a resume); 0 for a pause. */
                            released: number;
                        };
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5002 invalid address; 5003 nothing of this API key at that address or reference. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedEncoding"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    webhookRotateSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "overlap_hours": 24
                 *     }
                 */
                "application/json": {
                    /** @description Hours the replaced secret keeps signing beside the new one: 0 to 168, fractions allowed (default 24). */
                    overlap_hours?: number | string;
                    /** @description The API key, when it is not sent in the apikey header, the query or as the basic-auth username. */
                    apikey?: string;
                };
            };
        };
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": {
                     *         "webhook_secret": "whsec_q3vJ0lW5cL8xk1Yb7pQz2mRtN4sA6dF9gH0jK2lM3nE=",
                     *         "previous_expires_at": "2025-03-15T09:26:53.589Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: {
                            /** @description The new signing secret (whsec_…), shown once. */
                            webhook_secret: string;
                            /** @description Until when the replaced secret signs too; null without an overlap. */
                            previous_expires_at: string | null;
                        };
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedEncoding"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    webhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": [
                     *         {
                     *           "url": "https://backend.example.com/hooks/stream",
                     *           "state": "active",
                     *           "failing_since": null,
                     *           "disabled_at": null,
                     *           "last_attempt_at": "2025-03-14T09:27:41.112Z",
                     *           "last_status_code": 200,
                     *           "last_error": null,
                     *           "last_success_at": "2025-03-14T09:27:41.112Z",
                     *           "streams": 2,
                     *           "liveaml": 1,
                     *           "travelrule": true,
                     *           "pending_events": 0
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: components["schemas"]["WebhookEndpoint"][];
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    webhookEndpointsEnable: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://backend.example.com/hooks/stream"
                 *     }
                 */
                "application/json": {
                    /** @description http(s) URL that receives the webhooks; must not resolve to a private, loopback or link-local address unless the operator allows that range. */
                    url: string;
                    /** @description The API key, when it is not sent in the apikey header, the query or as the basic-auth username. */
                    apikey?: string;
                };
            };
        };
        responses: {
            /** @description Success: `code` 0, `message` "OK", the answer in `data`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 0,
                     *       "message": "OK",
                     *       "data": {
                     *         "url": "https://backend.example.com/hooks/stream",
                     *         "state": "active",
                     *         "was_disabled": true,
                     *         "released": 412
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        code: 0;
                        /** @constant */
                        message: "OK";
                        data: {
                            url: string;
                            /** @enum {string} */
                            state: "active" | "failing" | "disabled";
                            was_disabled: boolean;
                            /** @description Events made due now. */
                            released: number;
                        };
                    };
                };
            };
            /** @description Refused; the error numbers of this route: 5000 bad request (a field fails validation, a parameter, field or API key given twice, a malformed body); 5003 nothing of this API key at that address or reference; 5004 invalid webhook URL (not http(s), or it resolves to a forbidden address). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "code": 5000,
                     *       "status": 5000,
                     *       "message": "Bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)."
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedEncoding"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    streamEvmWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `application/json` (UTF-8). */
                "content-type": string;
                /** @description Length of the body in bytes. */
                "content-length": string;
                /** @description `Tollgate-Webhooks/1`. */
                "user-agent": string;
                /** @description `msg_<uuid>` (the event’s id): the same on every retry and redelivery of one event, and one body per id. Deduplicate on it. A stream, live AML or retraction event’s id is derived from what it is (subscription, network, transaction, block, confirmed, removed: a name-based UUID), so the event keeps its webhook-id even when Tollgate’s database loses its last commits (a failover to a replica that was behind, a restore) and the event is written again (its `sequence` numbered anew). */
                "webhook-id": string;
                /** @description Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` (the three joined with dots), keyed with the base64-decoded part of the API key's `whsec_` secret after the prefix (Standard Webhooks). During a secret rotation's overlap (POST /v2/webhook/rotate_secret) two space-separated signatures, `v1,<new> v1,<old>`: accept the webhook when one of them verifies (Standard Webhooks libraries do). Verify it on the raw body, and refuse a timestamp older than a few minutes. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "sequence": 8,
                 *       "blockNumber": 19876543,
                 *       "chainId": 1,
                 *       "tx": {
                 *         "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                 *         "to": "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
                 *         "hash": "0x2e7d2c03a9507ae265ecf5b5356885a53393a2029d241394997265a1a25aefc6",
                 *         "input": "0xa9059cbb00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8000000000000000000000000000000000000000000000000000000004995ff58",
                 *         "address": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                 *         "network": "eth",
                 *         "value": 0,
                 *         "formattedValue": 0,
                 *         "status": 1,
                 *         "gas": 62159,
                 *         "gasPrice": 4218557390,
                 *         "blockNumber": 19876543,
                 *         "logs": [
                 *           {
                 *             "transactionIndex": 57,
                 *             "blockNumber": 19876543,
                 *             "transactionHash": "0x2e7d2c03a9507ae265ecf5b5356885a53393a2029d241394997265a1a25aefc6",
                 *             "address": "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
                 *             "topics": [
                 *               "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
                 *               "0x000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                 *               "0x00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8"
                 *             ],
                 *             "data": "0x000000000000000000000000000000000000000000000000000000004995ff58",
                 *             "logIndex": 211,
                 *             "blockHash": "0x18ac3e7343f016890c510e93f935261169d9e3f565436429830faf0934f4f8e4"
                 *           }
                 *         ]
                 *       },
                 *       "confirmed": false,
                 *       "approvals": [],
                 *       "erc20Transfers": [
                 *         {
                 *           "address": "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
                 *           "topic": "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
                 *           "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                 *           "to": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                 *           "method": "transfer",
                 *           "type": "ERC20",
                 *           "name": "USD Coin",
                 *           "symbol": "USDC",
                 *           "created_at": "2024-05-15T09:41:23.000Z",
                 *           "index": 211,
                 *           "decimals": 6,
                 *           "value": 1234567000,
                 *           "formattedValue": 1234.567
                 *         }
                 *       ],
                 *       "erc721Transfers": [],
                 *       "erc1155Transfers": [],
                 *       "internalTransfers": [],
                 *       "contract_type": "ERC20",
                 *       "network": "eth"
                 *     }
                 */
                "application/json": {
                    /** @description Not in the spec; always the first field. Grows with every event written for the subscription (unconfirmed, confirmed, retraction, live AML alert), from 1; a repeat of the same event carries the same number. Order by it and drop what you have seen; a gap is an event still to come or given up (README, "What you can rely on"). */
                    sequence: number;
                    blockNumber: number;
                    /** @description The node's chain id. */
                    chainId: number;
                    tx: {
                        from: string;
                        /** @description Recipient, lower-case; for a contract creation the created contract ("" if the node reported neither). */
                        to: string;
                        hash: string;
                        input: string;
                        /** @description The streamed address this delivery is for (one delivery per streamed address the transaction touches). */
                        address: string;
                        /** @enum {string} */
                        network: "eth" | "bsc" | "polygon" | "avalanche" | "arb" | "op";
                        /** @description Native amount in wei. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        value: number;
                        /** @description `value` in whole coins, a float. */
                        formattedValue: number;
                        /** @description Receipt status: 1 success, 0 reverted; null where the receipt has none (blocks before Byzantium carry a state root instead), which says nothing either way. */
                        status: number | null;
                        /** @description Gas limit of the transaction. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        gas: number;
                        /** @description Effective gas price in wei (0 where the node gave none). An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        gasPrice: number;
                        blockNumber: number;
                        /** @description Every log of the transaction, in order. */
                        logs: {
                            transactionIndex: number;
                            blockNumber: number;
                            transactionHash: string;
                            /** @description Contract that emitted the log, lower-case. */
                            address: string;
                            topics: string[];
                            data: string;
                            /** @description Position of the log in its block. */
                            logIndex: number;
                            blockHash: string;
                        }[];
                    };
                    /** @description false when the block is indexed, true when it has the network’s confirmations (a second delivery, under its own webhook-id). */
                    confirmed: boolean;
                    /**
                     * @description Not in the spec; present only on a past transaction sent because the subscription was created with `from_block` (README, Endpoints).
                     * @constant
                     */
                    replay?: true;
                    approvals: {
                        /** @description Token contract. */
                        address: string;
                        /** @description Event signature: Approval or ApprovalForAll. */
                        topic: string;
                        /** @description Owner. */
                        from: string;
                        /** @description Spender or operator. */
                        to: string;
                        /** @constant */
                        method: "approval";
                        /** @description logIndex of the event. */
                        index: number;
                    }[];
                    erc20Transfers: {
                        /** @description Token contract. */
                        address: string;
                        /** @description Event signature: Transfer, TransferSingle or TransferBatch. */
                        topic: string;
                        from: string;
                        to: string;
                        /** @constant */
                        method: "transfer";
                        /** @description The token's name() at the node's latest block, or "". */
                        name: string;
                        /** @description The token's symbol(), or "". */
                        symbol: string;
                        /**
                         * Format: date-time
                         * @description Block time, ISO 8601 UTC.
                         */
                        created_at: string;
                        /** @description logIndex of the event. */
                        index: number;
                        /** @constant */
                        type: "ERC20";
                        /** @description The token's decimals() (0 when unknown). */
                        decimals: number;
                        /** @description Amount in the token’s smallest unit. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        value: number;
                        /** @description `value` scaled by `decimals`, a float. */
                        formattedValue: number;
                    }[];
                    erc721Transfers: {
                        /** @description Token contract. */
                        address: string;
                        /** @description Event signature: Transfer, TransferSingle or TransferBatch. */
                        topic: string;
                        from: string;
                        to: string;
                        /** @constant */
                        method: "transfer";
                        /** @description The token's name() at the node's latest block, or "". */
                        name: string;
                        /** @description The token's symbol(), or "". */
                        symbol: string;
                        /**
                         * Format: date-time
                         * @description Block time, ISO 8601 UTC.
                         */
                        created_at: string;
                        /** @description logIndex of the event. */
                        index: number;
                        /** @constant */
                        type: "ERC721";
                        /** @constant */
                        decimals: 0;
                        /** @constant */
                        value: 1;
                        /** @constant */
                        formattedValue: 1;
                        /** @description Token id. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        tokenID: number;
                    }[];
                    /** @description TransferSingle gives one item; TransferBatch one item per token id. */
                    erc1155Transfers: {
                        /** @description Token contract. */
                        address: string;
                        /** @description Event signature: Transfer, TransferSingle or TransferBatch. */
                        topic: string;
                        from: string;
                        to: string;
                        /** @constant */
                        method: "transfer";
                        /** @description The token's name() at the node's latest block, or "". */
                        name: string;
                        /** @description The token's symbol(), or "". */
                        symbol: string;
                        /**
                         * Format: date-time
                         * @description Block time, ISO 8601 UTC.
                         */
                        created_at: string;
                        /** @description logIndex of the event. */
                        index: number;
                        /** @constant */
                        type: "ERC1155";
                        /** @constant */
                        decimals: 0;
                        /** @description Amount moved (the same as `tokenValue`). An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        value: number;
                        /** @description `value` as a float. */
                        formattedValue: number;
                        /** @description Token id. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        tokenID: number;
                        /** @description Amount moved. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        tokenValue: number;
                    }[];
                    /** @description Not in the spec. Native coin the transaction’s calls moved inside it (a contract paying out, such as a mixer’s withdrawal), from the node’s call traces; frames that failed, and everything they called, moved nothing and are left out. Absent where the block was not traced: the node has no call traces (`tollgate doctor` says so), lacked the state to re-run the block, or TOLLGATE_INTERNAL_TRANSFERS_<NETWORK> is off. */
                    internalTransfers?: {
                        /** @description The contract that paid (or self-destructed). */
                        from: string;
                        /** @description Who received the coin (or the contract created). */
                        to: string;
                        /**
                         * @description The call frame that moved it: a call with a value, a contract creation, a self-destruct.
                         * @enum {string}
                         */
                        type: "call" | "create" | "selfdestruct";
                        /** @description The frame's place in the transaction's call tree, depth first (the transaction is 0). */
                        index: number;
                        /** @description Amount in the native coin’s smallest unit (wei). An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        value: number;
                        /** @description `value` in whole coins, a float. */
                        formattedValue: number;
                    }[];
                    /**
                     * @description Standard of the first token transfer; "" for a transaction without one.
                     * @enum {string}
                     */
                    contract_type: "" | "ERC20" | "ERC721" | "ERC1155";
                    /**
                     * @description Network symbol.
                     * @enum {string}
                     */
                    network: "eth" | "bsc" | "polygon" | "avalanche" | "arb" | "op";
                };
            };
        };
        responses: {
            /** @description Received: any 2xx answer settles the delivery. Anything else (or no answer in time) is retried; see the README, "Delivery and signatures". */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    streamBitcoinWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `application/json` (UTF-8). */
                "content-type": string;
                /** @description Length of the body in bytes. */
                "content-length": string;
                /** @description `Tollgate-Webhooks/1`. */
                "user-agent": string;
                /** @description `msg_<uuid>` (the event’s id): the same on every retry and redelivery of one event, and one body per id. Deduplicate on it. A stream, live AML or retraction event’s id is derived from what it is (subscription, network, transaction, block, confirmed, removed: a name-based UUID), so the event keeps its webhook-id even when Tollgate’s database loses its last commits (a failover to a replica that was behind, a restore) and the event is written again (its `sequence` numbered anew). */
                "webhook-id": string;
                /** @description Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` (the three joined with dots), keyed with the base64-decoded part of the API key's `whsec_` secret after the prefix (Standard Webhooks). During a secret rotation's overlap (POST /v2/webhook/rotate_secret) two space-separated signatures, `v1,<new> v1,<old>`: accept the webhook when one of them verifies (Standard Webhooks libraries do). Verify it on the raw body, and refuse a timestamp older than a few minutes. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "sequence": 2,
                 *       "hash": "829b206f4776751b79a6771f8fb602fe0ae4c29ce1ccf0b99f272f2837d1c897",
                 *       "hex": "0200000000010184fd9bac333ad79154348296204fa7f8c537a96e08983e5f73b3f5aca8e8edf70100000000fdffffff0215cd5b07000000001976a91477bff20c60e522dfaa3350c39b030a5d004e839a88ac2bad8a0700000000160014e8df018c7e326cc253faac7e46cdc51e68542c4202473044022036c2a1f9e8b3c2d1a0f9e8d7c6b5a4938271605f4e3d2c1b0a99887766554433022071f0e1d2c3b4a5968778695a4b3c2d1e0f1a2b3c4d5e6f708192a3b4c5d6e7f801210279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f8179810d90c00",
                 *       "version": 2,
                 *       "size": 225,
                 *       "vsize": 144,
                 *       "weight": 573,
                 *       "locktime": 842000,
                 *       "timestamp": 1714981347,
                 *       "fee": 14400,
                 *       "inputs": [
                 *         {
                 *           "prevout": {
                 *             "hash": "f7ede8a8acf5b3735f3e98086ea937c5f8a74f209682345491d73a33ac9bfd84",
                 *             "index": 1
                 *           },
                 *           "sequence": 4294967293,
                 *           "script": "",
                 *           "coin": {
                 *             "version": 2,
                 *             "height": 841870,
                 *             "value": 250000000,
                 *             "script": "0014751e76e8199196d454941c45d1b3a323f1433bd6",
                 *             "address": "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
                 *             "type": "witness_v0_keyhash",
                 *             "reqSigs": null,
                 *             "coinbase": false
                 *           }
                 *         }
                 *       ],
                 *       "outputs": [
                 *         {
                 *           "value": 123456789,
                 *           "script": "76a91477bff20c60e522dfaa3350c39b030a5d004e839a88ac",
                 *           "address": "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
                 *           "scriptPubKey": {
                 *             "type": "pubkeyhash",
                 *             "reqSigs": null
                 *           }
                 *         },
                 *         {
                 *           "value": 126528811,
                 *           "script": "0014e8df018c7e326cc253faac7e46cdc51e68542c42",
                 *           "address": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
                 *           "scriptPubKey": {
                 *             "type": "witness_v0_keyhash",
                 *             "reqSigs": null
                 *           }
                 *         }
                 *       ],
                 *       "addresses": [
                 *         "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
                 *         "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
                 *         "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
                 *       ],
                 *       "mapped": {
                 *         "inputs": [
                 *           {
                 *             "address": "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
                 *             "value": 250000000
                 *           }
                 *         ],
                 *         "outputs": [
                 *           {
                 *             "address": "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
                 *             "value": 123456789
                 *           },
                 *           {
                 *             "address": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
                 *             "value": 126528811
                 *           }
                 *         ]
                 *       },
                 *       "address": "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2",
                 *       "confirmed": true,
                 *       "network": "bitcoin",
                 *       "blockNumber": 842001,
                 *       "blockHash": "000000000000000000025af2392a948f950e3f93e9f171da623fe6629440bc8d"
                 *     }
                 */
                "application/json": {
                    /** @description Not in the spec; always the first field. Grows with every event written for the subscription (unconfirmed, confirmed, retraction, live AML alert), from 1; a repeat of the same event carries the same number. Order by it and drop what you have seen; a gap is an event still to come or given up (README, "What you can rely on"). */
                    sequence: number;
                    /** @description The txid. */
                    hash: string;
                    /** @description The raw transaction. */
                    hex: string;
                    version: number;
                    size: number;
                    vsize: number;
                    weight: number;
                    locktime: number;
                    /** @description The block header's time, Unix seconds. */
                    timestamp: number;
                    /** @description Inputs minus outputs in the smallest unit; 0 for a coinbase. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                    fee: number;
                    inputs: {
                        /** @description A coinbase input has hash of 64 zeros and index 4294967295. */
                        prevout: {
                            hash: string;
                            index: number;
                        };
                        sequence: number;
                        /** @description scriptSig, hex; the coinbase data for a coinbase input. */
                        script: string;
                        /** @description null for a coinbase input (it spends no coin). */
                        coin: {
                            /** @description Version of the transaction that created the coin. */
                            version: number;
                            /** @description Block height of the coin. */
                            height: number;
                            /** @description Amount of the coin in the smallest unit (satoshi, litoshi, koinu). An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                            value: number;
                            script: string;
                            /** @description null where the script pays no single address. */
                            address: string | null;
                            /** @description Script type as the node names it. */
                            type: string | null;
                            /** @description null where the node does not report it (Bitcoin Core 22+). */
                            reqSigs: number | null;
                            /** @description Whether the coin was created by a coinbase. */
                            coinbase: boolean;
                        } | null;
                    }[];
                    outputs: {
                        /** @description Amount in the smallest unit. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        value: number;
                        /** @description scriptPubKey, hex. */
                        script: string;
                        /** @description null where the script pays no single address (OP_RETURN, bare multisig, non-standard). */
                        address: string | null;
                        scriptPubKey: {
                            /** @description Script type as the node names it (pubkeyhash, witness_v0_keyhash, nulldata, …). */
                            type: string;
                            reqSigs: number | null;
                        };
                    }[];
                    /** @description Every address of the spent coins and of the outputs, once each, inputs first. */
                    addresses: string[];
                    mapped: {
                        /** @description Spent per address, in order of appearance. */
                        inputs: {
                            address: string;
                            /** @description Sum per address, in the smallest unit. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                            value: number;
                        }[];
                        /** @description Received per address, in order of appearance. */
                        outputs: {
                            address: string;
                            /** @description Sum per address, in the smallest unit. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                            value: number;
                        }[];
                    };
                    /** @description Not in the spec: the streamed address this delivery is for (one delivery per streamed address the transaction touches). */
                    address: string;
                    /** @description false when the block is indexed, true when it has the network’s confirmations (a second delivery). */
                    confirmed: boolean;
                    /**
                     * @description Not in the spec; present only on a past transaction sent because the subscription was created with `from_block` (README, Endpoints).
                     * @constant
                     */
                    replay?: true;
                    /** @enum {string} */
                    network: "bitcoin" | "litecoin" | "doge";
                    /** @description Block height. */
                    blockNumber: number;
                    /** @description Hash of the block. */
                    blockHash: string;
                };
            };
        };
        responses: {
            /** @description Received: any 2xx answer settles the delivery. Anything else (or no answer in time) is retried; see the README, "Delivery and signatures". */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    liveAmlWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `application/json` (UTF-8). */
                "content-type": string;
                /** @description Length of the body in bytes. */
                "content-length": string;
                /** @description `Tollgate-Webhooks/1`. */
                "user-agent": string;
                /** @description `msg_<uuid>` (the event’s id): the same on every retry and redelivery of one event, and one body per id. Deduplicate on it. A stream, live AML or retraction event’s id is derived from what it is (subscription, network, transaction, block, confirmed, removed: a name-based UUID), so the event keeps its webhook-id even when Tollgate’s database loses its last commits (a failover to a replica that was behind, a restore) and the event is written again (its `sequence` numbered anew). */
                "webhook-id": string;
                /** @description Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` (the three joined with dots), keyed with the base64-decoded part of the API key's `whsec_` secret after the prefix (Standard Webhooks). During a secret rotation's overlap (POST /v2/webhook/rotate_secret) two space-separated signatures, `v1,<new> v1,<old>`: accept the webhook when one of them verifies (Standard Webhooks libraries do). Verify it on the raw body, and refuse a timestamp older than a few minutes. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "sequence": 3,
                 *       "address": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                 *       "score": 48,
                 *       "tags": {
                 *         "mixer": false,
                 *         "fake_kyc": false,
                 *         "cybercrime": false,
                 *         "new_wallet": false,
                 *         "sanctioned": false,
                 *         "invalid_tokens": false,
                 *         "financial_crime": false,
                 *         "stealing_attack": false,
                 *         "money_laundering": false,
                 *         "gambling_accounts": false,
                 *         "blacklisted_tokens": false,
                 *         "phishing_activities": false,
                 *         "blacklisted_accounts": false,
                 *         "blackmail_activities": false,
                 *         "darkweb_transactions": false,
                 *         "number_of_malicious_contracts_created": false,
                 *         "direct_mixer": true,
                 *         "direct_fake_kyc": false,
                 *         "direct_cybercrime": false,
                 *         "direct_sanctioned": false,
                 *         "direct_financial_crime": false,
                 *         "direct_stealing_attack": false,
                 *         "direct_money_laundering": false,
                 *         "direct_gambling_accounts": false,
                 *         "direct_blacklisted_tokens": false,
                 *         "direct_phishing_activities": false,
                 *         "direct_blacklisted_accounts": false,
                 *         "direct_blackmail_activities": false,
                 *         "direct_darkweb_transactions": false,
                 *         "direct_number_of_malicious_contracts_created": false,
                 *         "indirect_mixer": false,
                 *         "indirect_fake_kyc": false,
                 *         "indirect_cybercrime": false,
                 *         "indirect_sanctioned": true,
                 *         "indirect_financial_crime": false,
                 *         "indirect_stealing_attack": false,
                 *         "indirect_money_laundering": false,
                 *         "indirect_gambling_accounts": false,
                 *         "indirect_blacklisted_tokens": false,
                 *         "indirect_phishing_activities": false,
                 *         "indirect_blacklisted_accounts": false,
                 *         "indirect_blackmail_activities": false,
                 *         "indirect_darkweb_transactions": false,
                 *         "indirect_number_of_malicious_contracts_created": false
                 *       },
                 *       "hash": "0x2e7d2c03a9507ae265ecf5b5356885a53393a2029d241394997265a1a25aefc6",
                 *       "block_number": 19876543,
                 *       "hash_tags": {
                 *         "direct_mixer": true,
                 *         "indirect_sanctioned": true
                 *       },
                 *       "triggered_by": [
                 *         {
                 *           "tag": "direct_mixer",
                 *           "counterparty": "0x8589427373d6d84e98730d7795d8f6f8731fda16",
                 *           "labelled": "0x8589427373d6d84e98730d7795d8f6f8731fda16",
                 *           "sources": [
                 *             "mixers.csv"
                 *           ]
                 *         },
                 *         {
                 *           "tag": "indirect_sanctioned",
                 *           "counterparty": "0x8589427373d6d84e98730d7795d8f6f8731fda16",
                 *           "labelled": "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
                 *           "sources": [
                 *             "ofac"
                 *           ]
                 *         }
                 *       ],
                 *       "created_at": "2024-05-15T09:41:24.318Z"
                 *     }
                 */
                "application/json": {
                    /** @description Not in the spec; always the first field. Grows with every event written for the subscription (unconfirmed, confirmed, retraction, live AML alert), from 1; a repeat of the same event carries the same number. Order by it and drop what you have seen; a gap is an event still to come or given up (README, "What you can rely on"). */
                    sequence: number;
                    /** @description The tracked address. */
                    address: string;
                    /** @description The address’s risk score as /analyze/aml gives it when the check runs (100 = highest risk). */
                    score: number;
                    /** @description Every AML tag of the address (base, direct_ and indirect_), a boolean each. */
                    tags: {
                        mixer: boolean;
                        fake_kyc: boolean;
                        cybercrime: boolean;
                        new_wallet: boolean;
                        sanctioned: boolean;
                        invalid_tokens: boolean;
                        financial_crime: boolean;
                        stealing_attack: boolean;
                        money_laundering: boolean;
                        gambling_accounts: boolean;
                        blacklisted_tokens: boolean;
                        phishing_activities: boolean;
                        blacklisted_accounts: boolean;
                        blackmail_activities: boolean;
                        darkweb_transactions: boolean;
                        number_of_malicious_contracts_created: boolean;
                        direct_mixer: boolean;
                        direct_fake_kyc: boolean;
                        direct_cybercrime: boolean;
                        direct_sanctioned: boolean;
                        direct_financial_crime: boolean;
                        direct_stealing_attack: boolean;
                        direct_money_laundering: boolean;
                        direct_gambling_accounts: boolean;
                        direct_blacklisted_tokens: boolean;
                        direct_phishing_activities: boolean;
                        direct_blacklisted_accounts: boolean;
                        direct_blackmail_activities: boolean;
                        direct_darkweb_transactions: boolean;
                        direct_number_of_malicious_contracts_created: boolean;
                        indirect_mixer: boolean;
                        indirect_fake_kyc: boolean;
                        indirect_cybercrime: boolean;
                        indirect_sanctioned: boolean;
                        indirect_financial_crime: boolean;
                        indirect_stealing_attack: boolean;
                        indirect_money_laundering: boolean;
                        indirect_gambling_accounts: boolean;
                        indirect_blacklisted_tokens: boolean;
                        indirect_phishing_activities: boolean;
                        indirect_blacklisted_accounts: boolean;
                        indirect_blackmail_activities: boolean;
                        indirect_darkweb_transactions: boolean;
                        indirect_number_of_malicious_contracts_created: boolean;
                    };
                    /** @description The transaction’s hash; "" for an alert raised by a label change. */
                    hash: string;
                    /** @description 0 for an alert raised by a label change. */
                    block_number: number;
                    /** @description Only the tags true for this transaction (direct_/indirect_); for an alert of a label change, the newly true tags (base tags too). */
                    hash_tags: {
                        /** @constant */
                        mixer?: true;
                        /** @constant */
                        fake_kyc?: true;
                        /** @constant */
                        cybercrime?: true;
                        /** @constant */
                        sanctioned?: true;
                        /** @constant */
                        invalid_tokens?: true;
                        /** @constant */
                        financial_crime?: true;
                        /** @constant */
                        stealing_attack?: true;
                        /** @constant */
                        money_laundering?: true;
                        /** @constant */
                        gambling_accounts?: true;
                        /** @constant */
                        blacklisted_tokens?: true;
                        /** @constant */
                        phishing_activities?: true;
                        /** @constant */
                        blacklisted_accounts?: true;
                        /** @constant */
                        blackmail_activities?: true;
                        /** @constant */
                        darkweb_transactions?: true;
                        /** @constant */
                        number_of_malicious_contracts_created?: true;
                        /** @constant */
                        direct_mixer?: true;
                        /** @constant */
                        direct_fake_kyc?: true;
                        /** @constant */
                        direct_cybercrime?: true;
                        /** @constant */
                        direct_sanctioned?: true;
                        /** @constant */
                        direct_financial_crime?: true;
                        /** @constant */
                        direct_stealing_attack?: true;
                        /** @constant */
                        direct_money_laundering?: true;
                        /** @constant */
                        direct_gambling_accounts?: true;
                        /** @constant */
                        direct_blacklisted_tokens?: true;
                        /** @constant */
                        direct_phishing_activities?: true;
                        /** @constant */
                        direct_blacklisted_accounts?: true;
                        /** @constant */
                        direct_blackmail_activities?: true;
                        /** @constant */
                        direct_darkweb_transactions?: true;
                        /** @constant */
                        direct_number_of_malicious_contracts_created?: true;
                        /** @constant */
                        indirect_mixer?: true;
                        /** @constant */
                        indirect_fake_kyc?: true;
                        /** @constant */
                        indirect_cybercrime?: true;
                        /** @constant */
                        indirect_sanctioned?: true;
                        /** @constant */
                        indirect_financial_crime?: true;
                        /** @constant */
                        indirect_stealing_attack?: true;
                        /** @constant */
                        indirect_money_laundering?: true;
                        /** @constant */
                        indirect_gambling_accounts?: true;
                        /** @constant */
                        indirect_blacklisted_tokens?: true;
                        /** @constant */
                        indirect_phishing_activities?: true;
                        /** @constant */
                        indirect_blacklisted_accounts?: true;
                        /** @constant */
                        indirect_blackmail_activities?: true;
                        /** @constant */
                        indirect_darkweb_transactions?: true;
                        /** @constant */
                        indirect_number_of_malicious_contracts_created?: true;
                    };
                    /** @description Not in the spec: per direct_/indirect_ tag of `hash_tags`, which counterparty brought it (at most 10 per tag). For an alert raised by a label change: the counterparties through which the changed labels reach the address (none for a tag of the address itself). */
                    triggered_by: {
                        /**
                         * @description A tag of `hash_tags`.
                         * @enum {string}
                         */
                        tag: "direct_mixer" | "direct_fake_kyc" | "direct_cybercrime" | "direct_sanctioned" | "direct_financial_crime" | "direct_stealing_attack" | "direct_money_laundering" | "direct_gambling_accounts" | "direct_blacklisted_tokens" | "direct_phishing_activities" | "direct_blacklisted_accounts" | "direct_blackmail_activities" | "direct_darkweb_transactions" | "direct_number_of_malicious_contracts_created" | "indirect_mixer" | "indirect_fake_kyc" | "indirect_cybercrime" | "indirect_sanctioned" | "indirect_financial_crime" | "indirect_stealing_attack" | "indirect_money_laundering" | "indirect_gambling_accounts" | "indirect_blacklisted_tokens" | "indirect_phishing_activities" | "indirect_blacklisted_accounts" | "indirect_blackmail_activities" | "indirect_darkweb_transactions" | "indirect_number_of_malicious_contracts_created";
                        /** @description The address the transaction shared with the tracked one. */
                        counterparty: string;
                        /** @description The address that carries the label: the counterparty itself for direct_, a counterparty of it for indirect_. */
                        labelled: string;
                        /** @description Label sources: "ofac", a CSV source name, "onchain:chainalysis_sanctions_oracle", … */
                        sources: string[];
                    }[];
                    /**
                     * Format: date-time
                     * @description The event’s creation time, ISO 8601 UTC; the same as in GET /v2/liveaml/events.
                     */
                    created_at: string;
                    /**
                     * @description Not in the spec; present only on a past transaction sent because the subscription was created with `from_block` (README, Endpoints).
                     * @constant
                     */
                    replay?: true;
                };
            };
        };
        responses: {
            /** @description Received: any 2xx answer settles the delivery. Anything else (or no answer in time) is retried; see the README, "Delivery and signatures". */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    travelRuleWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `application/json` (UTF-8). */
                "content-type": string;
                /** @description Length of the body in bytes. */
                "content-length": string;
                /** @description `Tollgate-Webhooks/1`. */
                "user-agent": string;
                /** @description `msg_<uuid>` (the event’s id): the same on every retry and redelivery of one event, and one body per id. Deduplicate on it. A stream, live AML or retraction event’s id is derived from what it is (subscription, network, transaction, block, confirmed, removed: a name-based UUID), so the event keeps its webhook-id even when Tollgate’s database loses its last commits (a failover to a replica that was behind, a restore) and the event is written again (its `sequence` numbered anew). */
                "webhook-id": string;
                /** @description Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` (the three joined with dots), keyed with the base64-decoded part of the API key's `whsec_` secret after the prefix (Standard Webhooks). During a secret rotation's overlap (POST /v2/webhook/rotate_secret) two space-separated signatures, `v1,<new> v1,<old>`: accept the webhook when one of them verifies (Standard Webhooks libraries do). Verify it on the raw body, and refuse a timestamp older than a few minutes. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "transaction_ref": "trp-6d1e3f0a-8c1b-4f7e-9a52-0c4d2b7e91f3",
                 *       "status": "WAITING_ADDRESS_DATA",
                 *       "persons": [
                 *         {
                 *           "naturalPerson": {
                 *             "name": {
                 *               "nameIdentifier": [
                 *                 {
                 *                   "primaryIdentifier": "Yılmaz",
                 *                   "secondaryIdentifier": "Ayşe",
                 *                   "nameIdentifierType": "LEGL"
                 *                 }
                 *               ]
                 *             },
                 *             "dateAndPlaceOfBirth": {
                 *               "dateOfBirth": "1986-03-14",
                 *               "placeOfBirth": "Izmir, TR"
                 *             },
                 *             "geographicAddress": [
                 *               {
                 *                 "addressType": "HOME",
                 *                 "streetName": "Cumhuriyet Caddesi",
                 *                 "buildingNumber": "42",
                 *                 "postCode": "34367",
                 *                 "townName": "Istanbul",
                 *                 "country": "TR"
                 *               }
                 *             ],
                 *             "customerIdentification": "CUST-0042-7781"
                 *           }
                 *         }
                 *       ],
                 *       "accountNumber": [
                 *         "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"
                 *       ]
                 *     }
                 */
                "application/json": {
                    /** @description The caller's transaction_ref of create_tx; for a deposit announced by another VASP over TRP, `trp-<request-identifier>`. */
                    transaction_ref: string;
                    /** @constant */
                    status: "OTHER_VASP_APPROVED";
                    /** @description The address the beneficiary VASP approved for the payment (TRP `approved.address`, or the one an operator recorded with the answer of a VASP reached by e-mail): pay to this one, not to an address known before (with a Travel Address your backend may never have known one). Null only when an e-mailed VASP's approval was recorded without an address. The same as beneficiary_address of GET /v2/travelrule/tx_status. */
                    beneficiary_address: string | null;
                    /** @description True when beneficiary_address is none of the beneficiary accountNumber given to create_tx (compared without case on EVM networks, exactly on others), false when it is one of them, null when beneficiary_address is null. Not an error (a Travel Address transfer legitimately gets an address the originator did not know), but a payout meant for the account named at create_tx must go to beneficiary_address. */
                    beneficiary_address_differs: boolean | null;
                } | {
                    /** @description The caller's transaction_ref of create_tx; for a deposit announced by another VASP over TRP, `trp-<request-identifier>`. */
                    transaction_ref: string;
                    /** @constant */
                    status: "OTHER_VASP_REJECTED";
                } | {
                    /** @description The caller's transaction_ref of create_tx; for a deposit announced by another VASP over TRP, `trp-<request-identifier>`. */
                    transaction_ref: string;
                    /** @constant */
                    status: "WAITING_ADDRESS_DATA";
                    /** @description The beneficiary persons the originator VASP sent (IVMS101): each a naturalPerson or a legalPerson. */
                    persons: ({
                        naturalPerson: {
                            name: {
                                /** @description At least one of type LEGL. */
                                nameIdentifier: {
                                    /** @description Family name, or the whole name when it cannot be split. */
                                    primaryIdentifier: string;
                                    /** @description Given names. */
                                    secondaryIdentifier?: string;
                                    /**
                                     * @description IVMS101 NaturalPersonNameTypeCode: LEGL legal, ALIA alias, BIRT at birth, MAID maiden, MISC other. Always this spelling (an input naturalPersonNameIdentifierType is stored under it).
                                     * @enum {string}
                                     */
                                    nameIdentifierType: "LEGL" | "ALIA" | "BIRT" | "MAID" | "MISC";
                                }[];
                                /** @description The name in local characters (IVMS101 LocalNaturalPersonNameId), when given. */
                                localNameIdentifier?: {
                                    /** @description Family name, or the whole name when it cannot be split. */
                                    primaryIdentifier: string;
                                    /** @description Given names. */
                                    secondaryIdentifier?: string;
                                    /**
                                     * @description IVMS101 NaturalPersonNameTypeCode: LEGL legal, ALIA alias, BIRT at birth, MAID maiden, MISC other. Always this spelling (an input naturalPersonNameIdentifierType is stored under it).
                                     * @enum {string}
                                     */
                                    nameIdentifierType: "LEGL" | "ALIA" | "BIRT" | "MAID" | "MISC";
                                }[];
                                /** @description The name as it is pronounced, when given. */
                                phoneticNameIdentifier?: {
                                    /** @description Family name, or the whole name when it cannot be split. */
                                    primaryIdentifier: string;
                                    /** @description Given names. */
                                    secondaryIdentifier?: string;
                                    /**
                                     * @description IVMS101 NaturalPersonNameTypeCode: LEGL legal, ALIA alias, BIRT at birth, MAID maiden, MISC other. Always this spelling (an input naturalPersonNameIdentifierType is stored under it).
                                     * @enum {string}
                                     */
                                    nameIdentifierType: "LEGL" | "ALIA" | "BIRT" | "MAID" | "MISC";
                                }[];
                            };
                            dateAndPlaceOfBirth?: {
                                /**
                                 * Format: date
                                 * @description YYYY-MM-DD.
                                 */
                                dateOfBirth: string;
                                placeOfBirth?: string;
                            };
                            /** @description Always this spelling (an input nationalIdenficiation or person-level nationalIdentifier is stored under it). */
                            nationalIdentification?: {
                                nationalIdentifier: string;
                                /**
                                 * @description IVMS101 NationalIdentifierTypeCode (CCPT passport, IDCD identity card, …).
                                 * @enum {string}
                                 */
                                nationalIdentifierType: "ARNU" | "CCPT" | "RAID" | "DRLC" | "FIIN" | "TXID" | "SOCS" | "IDCD" | "LEIX" | "MISC";
                                /** @description ISO 3166-1 alpha-2 country code, upper case; XX where not known (IVMS101 CountryCode). */
                                countryOfIssue?: string;
                            };
                            geographicAddress?: {
                                /**
                                 * @description IVMS101 AddressTypeCode: HOME residential, BIZZ business, GEOG geographic.
                                 * @enum {string}
                                 */
                                addressType: "HOME" | "BIZZ" | "GEOG";
                                department?: string;
                                subDepartment?: string;
                                streetName?: string;
                                buildingNumber?: string;
                                buildingName?: string;
                                floor?: string;
                                postBox?: string;
                                room?: string;
                                postCode?: string;
                                townName: string;
                                townLocationName?: string;
                                districtName?: string;
                                countrySubDivision?: string;
                                addressLine?: string[];
                                /** @description ISO 3166-1 alpha-2 country code, upper case; XX where not known (IVMS101 CountryCode). */
                                country: string;
                            }[];
                            /** @description Customer number. Always this spelling (an input customerIdenficiation or customerNumber is stored under it). */
                            customerIdentification?: string;
                            /** @description ISO 3166-1 alpha-2 country code, upper case; XX where not known (IVMS101 CountryCode). */
                            countryOfResidence?: string;
                        };
                    } | {
                        legalPerson: {
                            name: {
                                /** @description At least one of type LEGL. */
                                nameIdentifier: {
                                    legalPersonName: string;
                                    /**
                                     * @description IVMS101 LegalPersonNameTypeCode: LEGL legal, SHRT short, TRAD trading.
                                     * @enum {string}
                                     */
                                    legalPersonNameIdentifierType: "LEGL" | "SHRT" | "TRAD";
                                }[];
                                /** @description The name in local characters (IVMS101 LocalLegalPersonNameId), when given. */
                                localNameIdentifier?: {
                                    legalPersonName: string;
                                    /**
                                     * @description IVMS101 LegalPersonNameTypeCode: LEGL legal, SHRT short, TRAD trading.
                                     * @enum {string}
                                     */
                                    legalPersonNameIdentifierType: "LEGL" | "SHRT" | "TRAD";
                                }[];
                                /** @description The name as it is pronounced, when given. */
                                phoneticNameIdentifier?: {
                                    legalPersonName: string;
                                    /**
                                     * @description IVMS101 LegalPersonNameTypeCode: LEGL legal, SHRT short, TRAD trading.
                                     * @enum {string}
                                     */
                                    legalPersonNameIdentifierType: "LEGL" | "SHRT" | "TRAD";
                                }[];
                            };
                            geographicAddress?: {
                                /**
                                 * @description IVMS101 AddressTypeCode: HOME residential, BIZZ business, GEOG geographic.
                                 * @enum {string}
                                 */
                                addressType: "HOME" | "BIZZ" | "GEOG";
                                department?: string;
                                subDepartment?: string;
                                streetName?: string;
                                buildingNumber?: string;
                                buildingName?: string;
                                floor?: string;
                                postBox?: string;
                                room?: string;
                                postCode?: string;
                                townName: string;
                                townLocationName?: string;
                                districtName?: string;
                                countrySubDivision?: string;
                                addressLine?: string[];
                                /** @description ISO 3166-1 alpha-2 country code, upper case; XX where not known (IVMS101 CountryCode). */
                                country: string;
                            }[];
                            /** @description Customer number. Always this spelling (an input customerIdentification is stored under it). */
                            customerNumber?: string;
                            nationalIdentification?: {
                                /** @description With LEIX, an LEI in upper case (its ISO 17442 check digits hold). */
                                nationalIdentifier: string;
                                /**
                                 * @description IVMS101 NationalIdentifierTypeCode, a legal person's kinds: RAID registration authority identifier, MISC other, LEIX LEI, TXID tax number.
                                 * @enum {string}
                                 */
                                nationalIdentifierType: "RAID" | "MISC" | "LEIX" | "TXID";
                                /** @description GLEIF registration authority code; present unless the type is LEIX. */
                                registrationAuthority?: string;
                            };
                            /** @description ISO 3166-1 alpha-2 country code, upper case; XX where not known (IVMS101 CountryCode). */
                            countryOfRegistration?: string;
                        };
                    })[];
                    /** @description The beneficiary wallet addresses the originator VASP named; may be empty (it often learns the address only from your answer). */
                    accountNumber: string[];
                } | {
                    /** @description The caller's transaction_ref of create_tx; for a deposit announced by another VASP over TRP, `trp-<request-identifier>`. */
                    transaction_ref: string;
                    /** @constant */
                    status: "TRANSACTION_CONFIRMED";
                    /** @description The on-chain transaction hash the originator VASP gave for the deposit. */
                    txid: string;
                };
            };
        };
        responses: {
            /** @description Received: any 2xx answer settles the delivery. Anything else (or no answer in time) is retried; see the README, "Delivery and signatures". */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    retractionWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `application/json` (UTF-8). */
                "content-type": string;
                /** @description Length of the body in bytes. */
                "content-length": string;
                /** @description `Tollgate-Webhooks/1`. */
                "user-agent": string;
                /** @description `msg_<uuid>` (the event’s id): the same on every retry and redelivery of one event, and one body per id. Deduplicate on it. A stream, live AML or retraction event’s id is derived from what it is (subscription, network, transaction, block, confirmed, removed: a name-based UUID), so the event keeps its webhook-id even when Tollgate’s database loses its last commits (a failover to a replica that was behind, a restore) and the event is written again (its `sequence` numbered anew). */
                "webhook-id": string;
                /** @description Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` (the three joined with dots), keyed with the base64-decoded part of the API key's `whsec_` secret after the prefix (Standard Webhooks). During a secret rotation's overlap (POST /v2/webhook/rotate_secret) two space-separated signatures, `v1,<new> v1,<old>`: accept the webhook when one of them verifies (Standard Webhooks libraries do). Verify it on the raw body, and refuse a timestamp older than a few minutes. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "sequence": 10,
                 *       "removed": true,
                 *       "blockNumber": 19876543,
                 *       "chainId": 1,
                 *       "tx": {
                 *         "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                 *         "to": "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
                 *         "hash": "0x2e7d2c03a9507ae265ecf5b5356885a53393a2029d241394997265a1a25aefc6",
                 *         "input": "0xa9059cbb00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8000000000000000000000000000000000000000000000000000000004995ff58",
                 *         "address": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                 *         "network": "eth",
                 *         "value": 0,
                 *         "formattedValue": 0,
                 *         "status": 1,
                 *         "gas": 62159,
                 *         "gasPrice": 4218557390,
                 *         "blockNumber": 19876543,
                 *         "logs": [
                 *           {
                 *             "transactionIndex": 57,
                 *             "blockNumber": 19876543,
                 *             "transactionHash": "0x2e7d2c03a9507ae265ecf5b5356885a53393a2029d241394997265a1a25aefc6",
                 *             "address": "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
                 *             "topics": [
                 *               "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
                 *               "0x000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                 *               "0x00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8"
                 *             ],
                 *             "data": "0x000000000000000000000000000000000000000000000000000000004995ff58",
                 *             "logIndex": 211,
                 *             "blockHash": "0x18ac3e7343f016890c510e93f935261169d9e3f565436429830faf0934f4f8e4"
                 *           }
                 *         ]
                 *       },
                 *       "confirmed": false,
                 *       "approvals": [],
                 *       "erc20Transfers": [
                 *         {
                 *           "address": "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
                 *           "topic": "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
                 *           "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                 *           "to": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
                 *           "method": "transfer",
                 *           "type": "ERC20",
                 *           "name": "USD Coin",
                 *           "symbol": "USDC",
                 *           "created_at": "2024-05-15T09:41:23.000Z",
                 *           "index": 211,
                 *           "decimals": 6,
                 *           "value": 1234567000,
                 *           "formattedValue": 1234.567
                 *         }
                 *       ],
                 *       "erc721Transfers": [],
                 *       "erc1155Transfers": [],
                 *       "internalTransfers": [],
                 *       "contract_type": "ERC20",
                 *       "network": "eth"
                 *     }
                 */
                "application/json": {
                    /** @description The retraction’s own sequence, higher than that of every event it retracts; always the first field. */
                    sequence: number;
                    /**
                     * @description Always true, and the second field: the transaction’s block was reorganised away.
                     * @constant
                     */
                    removed: true;
                    blockNumber: number;
                    /** @description The node's chain id. */
                    chainId: number;
                    tx: {
                        from: string;
                        /** @description Recipient, lower-case; for a contract creation the created contract ("" if the node reported neither). */
                        to: string;
                        hash: string;
                        input: string;
                        /** @description The streamed address this delivery is for (one delivery per streamed address the transaction touches). */
                        address: string;
                        /** @enum {string} */
                        network: "eth" | "bsc" | "polygon" | "avalanche" | "arb" | "op";
                        /** @description Native amount in wei. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        value: number;
                        /** @description `value` in whole coins, a float. */
                        formattedValue: number;
                        /** @description Receipt status: 1 success, 0 reverted; null where the receipt has none (blocks before Byzantium carry a state root instead), which says nothing either way. */
                        status: number | null;
                        /** @description Gas limit of the transaction. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        gas: number;
                        /** @description Effective gas price in wei (0 where the node gave none). An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        gasPrice: number;
                        blockNumber: number;
                        /** @description Every log of the transaction, in order. */
                        logs: {
                            transactionIndex: number;
                            blockNumber: number;
                            transactionHash: string;
                            /** @description Contract that emitted the log, lower-case. */
                            address: string;
                            topics: string[];
                            data: string;
                            /** @description Position of the log in its block. */
                            logIndex: number;
                            blockHash: string;
                        }[];
                    };
                    /**
                     * @description Always false in a retraction, whatever the retracted delivery said.
                     * @constant
                     */
                    confirmed: false;
                    /**
                     * @description Not in the spec; present only on a past transaction sent because the subscription was created with `from_block` (README, Endpoints).
                     * @constant
                     */
                    replay?: true;
                    approvals: {
                        /** @description Token contract. */
                        address: string;
                        /** @description Event signature: Approval or ApprovalForAll. */
                        topic: string;
                        /** @description Owner. */
                        from: string;
                        /** @description Spender or operator. */
                        to: string;
                        /** @constant */
                        method: "approval";
                        /** @description logIndex of the event. */
                        index: number;
                    }[];
                    erc20Transfers: {
                        /** @description Token contract. */
                        address: string;
                        /** @description Event signature: Transfer, TransferSingle or TransferBatch. */
                        topic: string;
                        from: string;
                        to: string;
                        /** @constant */
                        method: "transfer";
                        /** @description The token's name() at the node's latest block, or "". */
                        name: string;
                        /** @description The token's symbol(), or "". */
                        symbol: string;
                        /**
                         * Format: date-time
                         * @description Block time, ISO 8601 UTC.
                         */
                        created_at: string;
                        /** @description logIndex of the event. */
                        index: number;
                        /** @constant */
                        type: "ERC20";
                        /** @description The token's decimals() (0 when unknown). */
                        decimals: number;
                        /** @description Amount in the token’s smallest unit. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        value: number;
                        /** @description `value` scaled by `decimals`, a float. */
                        formattedValue: number;
                    }[];
                    erc721Transfers: {
                        /** @description Token contract. */
                        address: string;
                        /** @description Event signature: Transfer, TransferSingle or TransferBatch. */
                        topic: string;
                        from: string;
                        to: string;
                        /** @constant */
                        method: "transfer";
                        /** @description The token's name() at the node's latest block, or "". */
                        name: string;
                        /** @description The token's symbol(), or "". */
                        symbol: string;
                        /**
                         * Format: date-time
                         * @description Block time, ISO 8601 UTC.
                         */
                        created_at: string;
                        /** @description logIndex of the event. */
                        index: number;
                        /** @constant */
                        type: "ERC721";
                        /** @constant */
                        decimals: 0;
                        /** @constant */
                        value: 1;
                        /** @constant */
                        formattedValue: 1;
                        /** @description Token id. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        tokenID: number;
                    }[];
                    /** @description TransferSingle gives one item; TransferBatch one item per token id. */
                    erc1155Transfers: {
                        /** @description Token contract. */
                        address: string;
                        /** @description Event signature: Transfer, TransferSingle or TransferBatch. */
                        topic: string;
                        from: string;
                        to: string;
                        /** @constant */
                        method: "transfer";
                        /** @description The token's name() at the node's latest block, or "". */
                        name: string;
                        /** @description The token's symbol(), or "". */
                        symbol: string;
                        /**
                         * Format: date-time
                         * @description Block time, ISO 8601 UTC.
                         */
                        created_at: string;
                        /** @description logIndex of the event. */
                        index: number;
                        /** @constant */
                        type: "ERC1155";
                        /** @constant */
                        decimals: 0;
                        /** @description Amount moved (the same as `tokenValue`). An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        value: number;
                        /** @description `value` as a float. */
                        formattedValue: number;
                        /** @description Token id. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        tokenID: number;
                        /** @description Amount moved. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        tokenValue: number;
                    }[];
                    /** @description Not in the spec. Native coin the transaction’s calls moved inside it (a contract paying out, such as a mixer’s withdrawal), from the node’s call traces; frames that failed, and everything they called, moved nothing and are left out. Absent where the block was not traced: the node has no call traces (`tollgate doctor` says so), lacked the state to re-run the block, or TOLLGATE_INTERNAL_TRANSFERS_<NETWORK> is off. */
                    internalTransfers?: {
                        /** @description The contract that paid (or self-destructed). */
                        from: string;
                        /** @description Who received the coin (or the contract created). */
                        to: string;
                        /**
                         * @description The call frame that moved it: a call with a value, a contract creation, a self-destruct.
                         * @enum {string}
                         */
                        type: "call" | "create" | "selfdestruct";
                        /** @description The frame's place in the transaction's call tree, depth first (the transaction is 0). */
                        index: number;
                        /** @description Amount in the native coin’s smallest unit (wei). An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        value: number;
                        /** @description `value` in whole coins, a float. */
                        formattedValue: number;
                    }[];
                    /**
                     * @description Standard of the first token transfer; "" for a transaction without one.
                     * @enum {string}
                     */
                    contract_type: "" | "ERC20" | "ERC721" | "ERC1155";
                    /**
                     * @description Network symbol.
                     * @enum {string}
                     */
                    network: "eth" | "bsc" | "polygon" | "avalanche" | "arb" | "op";
                } | {
                    /** @description The retraction’s own sequence, higher than that of every event it retracts; always the first field. */
                    sequence: number;
                    /**
                     * @description Always true, and the second field: the transaction’s block was reorganised away.
                     * @constant
                     */
                    removed: true;
                    /** @description The txid. */
                    hash: string;
                    /** @description The raw transaction. */
                    hex: string;
                    version: number;
                    size: number;
                    vsize: number;
                    weight: number;
                    locktime: number;
                    /** @description The block header's time, Unix seconds. */
                    timestamp: number;
                    /** @description Inputs minus outputs in the smallest unit; 0 for a coinbase. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                    fee: number;
                    inputs: {
                        /** @description A coinbase input has hash of 64 zeros and index 4294967295. */
                        prevout: {
                            hash: string;
                            index: number;
                        };
                        sequence: number;
                        /** @description scriptSig, hex; the coinbase data for a coinbase input. */
                        script: string;
                        /** @description null for a coinbase input (it spends no coin). */
                        coin: {
                            /** @description Version of the transaction that created the coin. */
                            version: number;
                            /** @description Block height of the coin. */
                            height: number;
                            /** @description Amount of the coin in the smallest unit (satoshi, litoshi, koinu). An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                            value: number;
                            script: string;
                            /** @description null where the script pays no single address. */
                            address: string | null;
                            /** @description Script type as the node names it. */
                            type: string | null;
                            /** @description null where the node does not report it (Bitcoin Core 22+). */
                            reqSigs: number | null;
                            /** @description Whether the coin was created by a coinbase. */
                            coinbase: boolean;
                        } | null;
                    }[];
                    outputs: {
                        /** @description Amount in the smallest unit. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                        value: number;
                        /** @description scriptPubKey, hex. */
                        script: string;
                        /** @description null where the script pays no single address (OP_RETURN, bare multisig, non-standard). */
                        address: string | null;
                        scriptPubKey: {
                            /** @description Script type as the node names it (pubkeyhash, witness_v0_keyhash, nulldata, …). */
                            type: string;
                            reqSigs: number | null;
                        };
                    }[];
                    /** @description Every address of the spent coins and of the outputs, once each, inputs first. */
                    addresses: string[];
                    mapped: {
                        /** @description Spent per address, in order of appearance. */
                        inputs: {
                            address: string;
                            /** @description Sum per address, in the smallest unit. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                            value: number;
                        }[];
                        /** @description Received per address, in order of appearance. */
                        outputs: {
                            address: string;
                            /** @description Sum per address, in the smallest unit. An integer written with every digit (it may exceed 2^53, where JavaScript’s JSON.parse rounds it: parse with a big-number-aware JSON parser if every digit matters). */
                            value: number;
                        }[];
                    };
                    /** @description Not in the spec: the streamed address this delivery is for (one delivery per streamed address the transaction touches). */
                    address: string;
                    /**
                     * @description Always false in a retraction, whatever the retracted delivery said.
                     * @constant
                     */
                    confirmed: false;
                    /**
                     * @description Not in the spec; present only on a past transaction sent because the subscription was created with `from_block` (README, Endpoints).
                     * @constant
                     */
                    replay?: true;
                    /** @enum {string} */
                    network: "bitcoin" | "litecoin" | "doge";
                    /** @description Block height. */
                    blockNumber: number;
                    /** @description Hash of the block. */
                    blockHash: string;
                } | {
                    /** @description The retraction’s own sequence, higher than that of every event it retracts; always the first field. */
                    sequence: number;
                    /**
                     * @description Always true, and the second field: the transaction’s block was reorganised away.
                     * @constant
                     */
                    removed: true;
                    /** @description The tracked address. */
                    address: string;
                    /** @description The address’s risk score as /analyze/aml gives it when the check runs (100 = highest risk). */
                    score: number;
                    /** @description Every AML tag of the address (base, direct_ and indirect_), a boolean each. */
                    tags: {
                        mixer: boolean;
                        fake_kyc: boolean;
                        cybercrime: boolean;
                        new_wallet: boolean;
                        sanctioned: boolean;
                        invalid_tokens: boolean;
                        financial_crime: boolean;
                        stealing_attack: boolean;
                        money_laundering: boolean;
                        gambling_accounts: boolean;
                        blacklisted_tokens: boolean;
                        phishing_activities: boolean;
                        blacklisted_accounts: boolean;
                        blackmail_activities: boolean;
                        darkweb_transactions: boolean;
                        number_of_malicious_contracts_created: boolean;
                        direct_mixer: boolean;
                        direct_fake_kyc: boolean;
                        direct_cybercrime: boolean;
                        direct_sanctioned: boolean;
                        direct_financial_crime: boolean;
                        direct_stealing_attack: boolean;
                        direct_money_laundering: boolean;
                        direct_gambling_accounts: boolean;
                        direct_blacklisted_tokens: boolean;
                        direct_phishing_activities: boolean;
                        direct_blacklisted_accounts: boolean;
                        direct_blackmail_activities: boolean;
                        direct_darkweb_transactions: boolean;
                        direct_number_of_malicious_contracts_created: boolean;
                        indirect_mixer: boolean;
                        indirect_fake_kyc: boolean;
                        indirect_cybercrime: boolean;
                        indirect_sanctioned: boolean;
                        indirect_financial_crime: boolean;
                        indirect_stealing_attack: boolean;
                        indirect_money_laundering: boolean;
                        indirect_gambling_accounts: boolean;
                        indirect_blacklisted_tokens: boolean;
                        indirect_phishing_activities: boolean;
                        indirect_blacklisted_accounts: boolean;
                        indirect_blackmail_activities: boolean;
                        indirect_darkweb_transactions: boolean;
                        indirect_number_of_malicious_contracts_created: boolean;
                    };
                    /** @description The transaction’s hash; "" for an alert raised by a label change. */
                    hash: string;
                    /** @description 0 for an alert raised by a label change. */
                    block_number: number;
                    /** @description Only the tags true for this transaction (direct_/indirect_); for an alert of a label change, the newly true tags (base tags too). */
                    hash_tags: {
                        /** @constant */
                        mixer?: true;
                        /** @constant */
                        fake_kyc?: true;
                        /** @constant */
                        cybercrime?: true;
                        /** @constant */
                        sanctioned?: true;
                        /** @constant */
                        invalid_tokens?: true;
                        /** @constant */
                        financial_crime?: true;
                        /** @constant */
                        stealing_attack?: true;
                        /** @constant */
                        money_laundering?: true;
                        /** @constant */
                        gambling_accounts?: true;
                        /** @constant */
                        blacklisted_tokens?: true;
                        /** @constant */
                        phishing_activities?: true;
                        /** @constant */
                        blacklisted_accounts?: true;
                        /** @constant */
                        blackmail_activities?: true;
                        /** @constant */
                        darkweb_transactions?: true;
                        /** @constant */
                        number_of_malicious_contracts_created?: true;
                        /** @constant */
                        direct_mixer?: true;
                        /** @constant */
                        direct_fake_kyc?: true;
                        /** @constant */
                        direct_cybercrime?: true;
                        /** @constant */
                        direct_sanctioned?: true;
                        /** @constant */
                        direct_financial_crime?: true;
                        /** @constant */
                        direct_stealing_attack?: true;
                        /** @constant */
                        direct_money_laundering?: true;
                        /** @constant */
                        direct_gambling_accounts?: true;
                        /** @constant */
                        direct_blacklisted_tokens?: true;
                        /** @constant */
                        direct_phishing_activities?: true;
                        /** @constant */
                        direct_blacklisted_accounts?: true;
                        /** @constant */
                        direct_blackmail_activities?: true;
                        /** @constant */
                        direct_darkweb_transactions?: true;
                        /** @constant */
                        direct_number_of_malicious_contracts_created?: true;
                        /** @constant */
                        indirect_mixer?: true;
                        /** @constant */
                        indirect_fake_kyc?: true;
                        /** @constant */
                        indirect_cybercrime?: true;
                        /** @constant */
                        indirect_sanctioned?: true;
                        /** @constant */
                        indirect_financial_crime?: true;
                        /** @constant */
                        indirect_stealing_attack?: true;
                        /** @constant */
                        indirect_money_laundering?: true;
                        /** @constant */
                        indirect_gambling_accounts?: true;
                        /** @constant */
                        indirect_blacklisted_tokens?: true;
                        /** @constant */
                        indirect_phishing_activities?: true;
                        /** @constant */
                        indirect_blacklisted_accounts?: true;
                        /** @constant */
                        indirect_blackmail_activities?: true;
                        /** @constant */
                        indirect_darkweb_transactions?: true;
                        /** @constant */
                        indirect_number_of_malicious_contracts_created?: true;
                    };
                    /** @description Not in the spec: per direct_/indirect_ tag of `hash_tags`, which counterparty brought it (at most 10 per tag). For an alert raised by a label change: the counterparties through which the changed labels reach the address (none for a tag of the address itself). */
                    triggered_by: {
                        /**
                         * @description A tag of `hash_tags`.
                         * @enum {string}
                         */
                        tag: "direct_mixer" | "direct_fake_kyc" | "direct_cybercrime" | "direct_sanctioned" | "direct_financial_crime" | "direct_stealing_attack" | "direct_money_laundering" | "direct_gambling_accounts" | "direct_blacklisted_tokens" | "direct_phishing_activities" | "direct_blacklisted_accounts" | "direct_blackmail_activities" | "direct_darkweb_transactions" | "direct_number_of_malicious_contracts_created" | "indirect_mixer" | "indirect_fake_kyc" | "indirect_cybercrime" | "indirect_sanctioned" | "indirect_financial_crime" | "indirect_stealing_attack" | "indirect_money_laundering" | "indirect_gambling_accounts" | "indirect_blacklisted_tokens" | "indirect_phishing_activities" | "indirect_blacklisted_accounts" | "indirect_blackmail_activities" | "indirect_darkweb_transactions" | "indirect_number_of_malicious_contracts_created";
                        /** @description The address the transaction shared with the tracked one. */
                        counterparty: string;
                        /** @description The address that carries the label: the counterparty itself for direct_, a counterparty of it for indirect_. */
                        labelled: string;
                        /** @description Label sources: "ofac", a CSV source name, "onchain:chainalysis_sanctions_oracle", … */
                        sources: string[];
                    }[];
                    /**
                     * Format: date-time
                     * @description The event’s creation time, ISO 8601 UTC; the same as in GET /v2/liveaml/events.
                     */
                    created_at: string;
                    /**
                     * @description Not in the spec; present only on a past transaction sent because the subscription was created with `from_block` (README, Endpoints).
                     * @constant
                     */
                    replay?: true;
                };
            };
        };
        responses: {
            /** @description Received: any 2xx answer settles the delivery. Anything else (or no answer in time) is retried; see the README, "Delivery and signatures". */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `application/json` (UTF-8). */
                "content-type": string;
                /** @description Length of the body in bytes. */
                "content-length": string;
                /** @description `Tollgate-Webhooks/1`. */
                "user-agent": string;
                /** @description `msg_<uuid>` (the event’s id): the same on every retry and redelivery of one event, and one body per id. Deduplicate on it. A stream, live AML or retraction event’s id is derived from what it is (subscription, network, transaction, block, confirmed, removed: a name-based UUID), so the event keeps its webhook-id even when Tollgate’s database loses its last commits (a failover to a replica that was behind, a restore) and the event is written again (its `sequence` numbered anew). */
                "webhook-id": string;
                /** @description Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` (the three joined with dots), keyed with the base64-decoded part of the API key's `whsec_` secret after the prefix (Standard Webhooks). During a secret rotation's overlap (POST /v2/webhook/rotate_secret) two space-separated signatures, `v1,<new> v1,<old>`: accept the webhook when one of them verifies (Standard Webhooks libraries do). Verify it on the raw body, and refuse a timestamp older than a few minutes. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "test",
                 *       "test": true,
                 *       "kind": "stream",
                 *       "address": "0x9e7454285fbbfc8c034bad9cb4cbfba6254d7d87",
                 *       "created_at": "2025-03-14T09:26:53.589Z",
                 *       "message": "A test webhook from Tollgate, sent on request: it carries no event. Verify its signature and answer 2xx."
                 *     }
                 */
                "application/json": {
                    /** @constant */
                    type: "test";
                    /**
                     * @description Always true: this webhook carries no event.
                     * @constant
                     */
                    test: true;
                    /**
                     * @description The kind of receiver it was sent to.
                     * @enum {string}
                     */
                    kind: "stream" | "aml" | "travelrule";
                    /** @description The subscription’s address; null for a URL or travel rule test. */
                    address: string | null;
                    /** Format: date-time */
                    created_at: string;
                    message: string;
                };
            };
        };
        responses: {
            /** @description Received: any 2xx answer settles the delivery. Anything else (or no answer in time) is retried; see the README, "Delivery and signatures". */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    endpointDisabledWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description `application/json` (UTF-8). */
                "content-type": string;
                /** @description Length of the body in bytes. */
                "content-length": string;
                /** @description `Tollgate-Webhooks/1`. */
                "user-agent": string;
                /** @description `msg_<uuid>` (the event’s id): the same on every retry and redelivery of one event, and one body per id. Deduplicate on it. A stream, live AML or retraction event’s id is derived from what it is (subscription, network, transaction, block, confirmed, removed: a name-based UUID), so the event keeps its webhook-id even when Tollgate’s database loses its last commits (a failover to a replica that was behind, a restore) and the event is written again (its `sequence` numbered anew). */
                "webhook-id": string;
                /** @description Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` (the three joined with dots), keyed with the base64-decoded part of the API key's `whsec_` secret after the prefix (Standard Webhooks). During a secret rotation's overlap (POST /v2/webhook/rotate_secret) two space-separated signatures, `v1,<new> v1,<old>`: accept the webhook when one of them verifies (Standard Webhooks libraries do). Verify it on the raw body, and refuse a timestamp older than a few minutes. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "webhook.endpoint_disabled",
                 *       "timestamp": "2025-03-19T09:30:12.004Z",
                 *       "data": {
                 *         "endpoint_id": "17",
                 *         "api_key_id": "3",
                 *         "api_key_name": "backend",
                 *         "host": "backend.example.com",
                 *         "state": "disabled",
                 *         "failing_since": "2025-03-14T09:27:41.112Z",
                 *         "disabled_at": "2025-03-19T09:30:12.004Z",
                 *         "disablements": 1,
                 *         "last_status_code": 503,
                 *         "last_error": "receiver answered 503",
                 *         "pending_events": 1289
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @constant */
                    type: "webhook.endpoint_disabled";
                    /**
                     * Format: date-time
                     * @description When the endpoint was disabled.
                     */
                    timestamp: string;
                    data: {
                        endpoint_id: string;
                        api_key_id: string;
                        api_key_name: string;
                        /** @description host[:port] of the endpoint’s URL (never its path or query, which may carry a credential). */
                        host: string;
                        /**
                         * @description Its state when the notice was sent (enabled again meanwhile: not disabled).
                         * @enum {string}
                         */
                        state: "active" | "failing" | "disabled";
                        failing_since: string | null;
                        disabled_at: string | null;
                        /** @description How often it was disabled so far. */
                        disablements: number;
                        last_status_code: number | null;
                        last_error: string | null;
                        /** @description Events kept for it. */
                        pending_events: number;
                    };
                };
            };
        };
        responses: {
            /** @description Received: any 2xx answer settles the delivery. Anything else (or no answer in time) is retried; see the README, "Delivery and signatures". */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
