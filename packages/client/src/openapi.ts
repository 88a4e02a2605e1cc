/**
 * Generated from the service's OpenAPI document by packages/client/scripts/generate-types.ts (openapi-typescript).
 * Do not edit: run `npm run client:types`. test/client/types.test.ts fails when this file and the service differ.
 */
export interface paths {
    "/v1/async/task": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Submit one task */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        taskType: "CHATBOT_A" | "ANSWER_ENGINE_A" | "ASSISTANT_A" | "AIMODE" | "SEARCH_A" | "SEARCH_A_SERP" | "SEARCH_B_AI_BRIEF" | "SEARCH_B_AI_TAB" | "SEARCH_B_SERP" | "SEARCH_C_SEARCH" | "SEARCH_C_ASSISTANT" | "FORUM" | "WEB_SCRAPE" | "SOURCE_INFLUENCE" | "PROMPT_RESEARCH" | "SEARCH_A_AIMODE" | "SEARCH_A_AIO" | "SEARCH_B" | "SEARCH_C" | "SEARCH_C_ASSISTANT_SEARCH" | "ASSISTANT_C" | "CITATION_ATTRIBUTION";
                        payload: {
                            prompt?: string;
                            query?: string;
                            /** @description ISO 3166-1 alpha-2, case-insensitive */
                            country?: string;
                            page?: number;
                            action?: string;
                            url?: string;
                            community?: string;
                            user?: string;
                            include?: {
                                markdown?: boolean;
                                rawResponse?: boolean;
                                html?: boolean;
                                /** @description Keep the evidence (raw payload; page HTML and screenshot in browser modes) for the retention */
                                artifacts?: boolean;
                            };
                            /**
                             * @description engines with an API and an app (CHATBOT_A, ANSWER_ENGINE_A): which one answers; default: the engine's configured transport
                             * @enum {string}
                             */
                            surface?: "api" | "app";
                        };
                        idempotencyKey?: string;
                        /** @description 1..10, default 1; out-of-range values are clamped */
                        priority?: number;
                        webhook?: {
                            /** @description Receives a POST when the task is terminal */
                            url: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            task?: {
                                /** Format: uuid */
                                id?: string;
                                taskType?: string;
                                /** @enum {string} */
                                status?: "QUEUED" | "PROCESSING" | "COMPLETED" | "FAILED";
                                priority?: number;
                                /** Format: date-time */
                                createdAt?: string;
                                idempotencyKey?: string;
                            };
                            credits?: {
                                creditsToCharge?: number;
                                creditsCharged?: number | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/async/task/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Submit 1 to 500 tasks of mixed engines */
        post: {
            parameters: {
                query?: {
                    /** @description Receives one POST (`batch.completed`, signed like task deliveries) when every task of the batch is terminal */
                    webhook?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description 1 to 500 submission envelopes; each item is validated on its own and reported in results[] */
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        taskType: "CHATBOT_A" | "ANSWER_ENGINE_A" | "ASSISTANT_A" | "AIMODE" | "SEARCH_A" | "SEARCH_A_SERP" | "SEARCH_B_AI_BRIEF" | "SEARCH_B_AI_TAB" | "SEARCH_B_SERP" | "SEARCH_C_SEARCH" | "SEARCH_C_ASSISTANT" | "FORUM" | "WEB_SCRAPE" | "SOURCE_INFLUENCE" | "PROMPT_RESEARCH" | "SEARCH_A_AIMODE" | "SEARCH_A_AIO" | "SEARCH_B" | "SEARCH_C" | "SEARCH_C_ASSISTANT_SEARCH" | "ASSISTANT_C" | "CITATION_ATTRIBUTION";
                        payload: {
                            prompt?: string;
                            query?: string;
                            /** @description ISO 3166-1 alpha-2, case-insensitive */
                            country?: string;
                            page?: number;
                            action?: string;
                            url?: string;
                            community?: string;
                            user?: string;
                            include?: {
                                markdown?: boolean;
                                rawResponse?: boolean;
                                html?: boolean;
                                /** @description Keep the evidence (raw payload; page HTML and screenshot in browser modes) for the retention */
                                artifacts?: boolean;
                            };
                            /**
                             * @description engines with an API and an app (CHATBOT_A, ANSWER_ENGINE_A): which one answers; default: the engine's configured transport
                             * @enum {string}
                             */
                            surface?: "api" | "app";
                        };
                        idempotencyKey?: string;
                        /** @description 1..10, default 1; out-of-range values are clamped */
                        priority?: number;
                        webhook?: {
                            /** @description Receives a POST when the task is terminal */
                            url: string;
                        };
                    }[];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            /** @description The batch object (GET /v1/async/batch/{id}); null only when the store refused the whole insert */
                            batch?: {
                                /** Format: uuid */
                                id?: string;
                                size?: number;
                            } | null;
                            summary?: {
                                total?: number;
                                succeeded?: number;
                                failed?: number;
                            };
                            results?: {
                                success?: boolean;
                                index?: number;
                                task?: {
                                    /** Format: uuid */
                                    id?: string;
                                    taskType?: string;
                                    /** @enum {string} */
                                    status?: "QUEUED" | "PROCESSING" | "COMPLETED" | "FAILED";
                                    priority?: number;
                                    /** Format: date-time */
                                    createdAt?: string;
                                    idempotencyKey?: string;
                                };
                                credits?: {
                                    creditsToCharge?: number;
                                    creditsCharged?: number | null;
                                };
                                error?: {
                                    code?: string;
                                    message?: string;
                                    details?: unknown;
                                    /** Format: date-time */
                                    timestamp?: string;
                                };
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/async/task/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Poll a task */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            task?: {
                                /** Format: uuid */
                                id?: string;
                                taskType?: string;
                                /** @enum {string} */
                                status?: "QUEUED" | "PROCESSING" | "COMPLETED" | "FAILED";
                                priority?: number;
                                /** Format: date-time */
                                createdAt?: string;
                                idempotencyKey?: string;
                            };
                            credits?: {
                                creditsToCharge?: number;
                                creditsCharged?: number | null;
                            };
                            /** @description Engine result; present when COMPLETED. A SOURCE_INFLUENCE task answers with a SourceInfluenceResult, a PROMPT_RESEARCH task with a PromptResearchResult, any other engine with its answer (text, markdown, sources) */
                            response?: components["schemas"]["SourceInfluenceResult"] | components["schemas"]["PromptResearchResult"] | components["schemas"]["EngineAnswer"];
                            /** @description <CODE>: <sentence>; present when FAILED */
                            error?: string;
                            /** @description Why the last attempt failed; present when FAILED (absent on tasks that failed before aeq recorded reasons). The contract's `error` string stays fixed; branch on this `code` for the reason. */
                            failure?: {
                                /**
                                 * @description what ended the last attempt: a kind of upstream failure, or one of aeq (the last five)
                                 * @enum {string}
                                 */
                                code: "UPSTREAM_BLOCKED" | "CONSENT_REQUIRED" | "RATE_LIMITED" | "AUTH_FAILED" | "PROVIDER_REFUSED" | "LAYOUT_CHANGED" | "NO_ANSWER" | "UPSTREAM_ERROR" | "TIMEOUT" | "CONTENT_UNREADABLE" | "BAD_PAYLOAD" | "PAGE_UNAVAILABLE" | "INTERNAL_ERROR" | "ENGINE_UNAVAILABLE" | "NO_IP_AVAILABLE" | "NO_ACCOUNT_AVAILABLE" | "WORKER_LOST";
                                /**
                                 * @description whose side failed: the engine's upstream (or the way to it), or aeq itself
                                 * @enum {string}
                                 */
                                origin: "upstream" | "aeq";
                                /** @description one sentence for a reader; no URL path or query, credential or body */
                                message: string;
                                /** @description host[:port] the attempt talked to; null when it never reached one */
                                upstreamHost: string | null;
                                /** @description attempts made, the last included */
                                attempts: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/async/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's account's tasks created since a time, oldest first, a page at a time */
        get: {
            parameters: {
                query: {
                    /** @description tasks created at or after this time (RFC 3339, e.g. 2026-11-20T10:00:00Z; URL-encode a + offset as %2B). A time before the 24-hour retention reads as its start: older tasks are no longer kept */
                    since: string;
                    /** @description tasks created before this time (RFC 3339); after `since` */
                    until?: string;
                    /** @description only this status */
                    status?: "QUEUED" | "PROCESSING" | "COMPLETED" | "FAILED";
                    /** @description only tasks of this task type (canonical name or alias, e.g. CHATBOT_A or PROMPT_RESEARCH) */
                    engine?: string;
                    /** @description `asc`: oldest first (the default); `desc`: newest first */
                    order?: "asc" | "desc";
                    /** @description only tasks whose request text (`prompt`, `query`, `url`, `community` or `seed`) contains this text, ignoring case (ASCII letters only on the embedded store) */
                    q?: string;
                    /** @description tasks per page */
                    limit?: number;
                    /** @description `nextCursor` of the previous page (of the same query) */
                    cursor?: string;
                    /** @description `result`: each COMPLETED task with its `response`, each FAILED task with its `error`; `request`: each task with its `request` (`payload` as submitted); both, comma-separated */
                    include?: "result" | "request" | "result,request" | "request,result";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            /** @description one page of the tasks, oldest first (in creation order, the order of their ids) */
                            tasks?: {
                                task?: {
                                    /** Format: uuid */
                                    id?: string;
                                    taskType?: string;
                                    /** @enum {string} */
                                    status?: "QUEUED" | "PROCESSING" | "COMPLETED" | "FAILED";
                                    priority?: number;
                                    /** Format: date-time */
                                    createdAt?: string;
                                    idempotencyKey?: string;
                                };
                                credits?: {
                                    creditsToCharge?: number;
                                    creditsCharged?: number | null;
                                };
                                /** @description Engine result, as polling shows it; with include=result, when COMPLETED */
                                response?: components["schemas"]["SourceInfluenceResult"] | components["schemas"]["PromptResearchResult"] | components["schemas"]["EngineAnswer"];
                                /** @description <CODE>: <sentence>, as polling shows it; with include=result, when FAILED */
                                error?: string;
                                /** @description as polling shows it; with include=result, when FAILED */
                                failure?: {
                                    /**
                                     * @description what ended the last attempt: a kind of upstream failure, or one of aeq (the last five)
                                     * @enum {string}
                                     */
                                    code: "UPSTREAM_BLOCKED" | "CONSENT_REQUIRED" | "RATE_LIMITED" | "AUTH_FAILED" | "PROVIDER_REFUSED" | "LAYOUT_CHANGED" | "NO_ANSWER" | "UPSTREAM_ERROR" | "TIMEOUT" | "CONTENT_UNREADABLE" | "BAD_PAYLOAD" | "PAGE_UNAVAILABLE" | "INTERNAL_ERROR" | "ENGINE_UNAVAILABLE" | "NO_IP_AVAILABLE" | "NO_ACCOUNT_AVAILABLE" | "WORKER_LOST";
                                    /**
                                     * @description whose side failed: the engine's upstream (or the way to it), or aeq itself
                                     * @enum {string}
                                     */
                                    origin: "upstream" | "aeq";
                                    /** @description one sentence for a reader; no URL path or query, credential or body */
                                    message: string;
                                    /** @description host[:port] the attempt talked to; null when it never reached one */
                                    upstreamHost: string | null;
                                    /** @description attempts made, the last included */
                                    attempts: number;
                                };
                                /** @description What was asked: the `payload` as submitted, and its region; with include=request */
                                request?: {
                                    payload?: {
                                        [key: string]: unknown;
                                    };
                                    /** @description the region it is served from */
                                    country?: string | null;
                                };
                            }[];
                            /** @description pass as `cursor` for the next page; null on the last */
                            nextCursor?: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's account's tasks of a window as JSONL, CSV or Parquet, streamed */
        get: {
            parameters: {
                query: {
                    /** @description tasks created at or after this time (RFC 3339); a time before the 24-hour retention reads as its start */
                    since: string;
                    /** @description tasks created before this time (RFC 3339); after `since` */
                    until?: string;
                    /** @description jsonl (one JSON object a line), csv (formula-escaped) or parquet; the same columns in each */
                    format?: "jsonl" | "csv" | "parquet";
                    /** @description a monitor's id: export its completed runs scheduled in the window instead of tasks, one row per saved answer with its group’s figures (docs/exports.md#monitor-columns) */
                    monitor?: string;
                    /** @description resume after this task_id (a monitor export: this run_id), the last row a broken download kept: the rest of the window follows */
                    after?: string;
                    /** @description only this status */
                    status?: "QUEUED" | "PROCESSING" | "COMPLETED" | "FAILED";
                    /** @description only tasks of this task type */
                    engine?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/async/task/{id}/request": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What a task asked: its payload, region, webhook host and attempts */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            task?: {
                                /** Format: uuid */
                                id?: string;
                                taskType?: string;
                                /** @enum {string} */
                                status?: "QUEUED" | "PROCESSING" | "COMPLETED" | "FAILED";
                                priority?: number;
                                /** Format: date-time */
                                createdAt?: string;
                                idempotencyKey?: string;
                            };
                            request?: {
                                /** @description as submitted */
                                payload?: {
                                    [key: string]: unknown;
                                };
                                /** @description the region it is served from */
                                country?: string | null;
                                /** @description where its webhook goes (host only); null without one */
                                webhook?: {
                                    targetHost?: string;
                                } | null;
                                /** @description attempts made so far */
                                attempts?: number;
                                maxAttempts?: number;
                                /** Format: date-time */
                                updatedAt?: string;
                                /** Format: date-time */
                                finishedAt?: string | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/async/task/{id}/artifacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The artefacts a task kept (include.artifacts): raw payload, page HTML, screenshot */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            task?: {
                                /** Format: uuid */
                                id?: string;
                                taskType?: string;
                                /** @enum {string} */
                                status?: "QUEUED" | "PROCESSING" | "COMPLETED" | "FAILED";
                                priority?: number;
                                /** Format: date-time */
                                createdAt?: string;
                                idempotencyKey?: string;
                            };
                            /** @description empty when the task kept none (not asked, not finished yet, or failed) */
                            artifacts?: {
                                /**
                                 * @description fixed per kind; the last segment of `url`
                                 * @enum {string}
                                 */
                                name: "raw.json" | "page.html" | "screenshot.png";
                                /**
                                 * @description `raw`: the upstream payload the engine read (JSON, secrets removed); `html`: the page as the browser read it; `screenshot`: the page as shown (PNG)
                                 * @enum {string}
                                 */
                                kind: "raw" | "html" | "screenshot";
                                contentType: string;
                                /** @description size in bytes */
                                bytes: number;
                                /** @description hex SHA-256 of the bytes (the ETag) */
                                sha256: string;
                                /** Format: date-time */
                                createdAt: string;
                                /** @description where to download it (same bearer key); range requests are honoured */
                                url: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/async/task/{id}/artifacts/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One of a task's artefacts, its bytes (a single Range is honoured: 206, or 416) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the artefact, with Content-Type, Content-Length, ETag and Accept-Ranges: bytes */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                        "text/html": string;
                        "image/png": string;
                    };
                };
                /** @description the artefact, with Content-Type, Content-Length, ETag and Accept-Ranges: bytes */
                206: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": string;
                        "text/html": string;
                        "image/png": string;
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                416: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/async/batches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's batches (within the 24-hour retention), newest first, with their progress */
        get: {
            parameters: {
                query?: {
                    /** @description batches per page */
                    limit?: number;
                    /** @description `nextCursor` of the previous page */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            /** @description newest first */
                            batches?: {
                                /** Format: uuid */
                                id?: string;
                                /** @description items submitted */
                                size?: number;
                                /** @description items accepted as tasks */
                                total?: number;
                                /** @description items that failed at submission (no task) */
                                rejected?: number;
                                /** @description tasks COMPLETED or FAILED */
                                done?: number;
                                counts?: {
                                    QUEUED?: number;
                                    PROCESSING?: number;
                                    COMPLETED?: number;
                                    FAILED?: number;
                                };
                                /** Format: date-time */
                                createdAt?: string;
                                /**
                                 * Format: date-time
                                 * @description the latest change to any of its tasks
                                 */
                                updatedAt?: string | null;
                                /**
                                 * Format: date-time
                                 * @description when every task was found terminal; null before
                                 */
                                completedAt?: string | null;
                            }[];
                            /** @description pass as `cursor` for the next page; null on the last */
                            nextCursor?: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/async/batch/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A batch's progress and its items */
        get: {
            parameters: {
                query?: {
                    /** @description items per page */
                    limit?: number;
                    /** @description `nextCursor` of the previous page */
                    cursor?: string;
                    /** @description `request`: each item with what it asked (`payload`) */
                    include?: "request";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            batch?: {
                                /** Format: uuid */
                                id?: string;
                                /** @description items submitted */
                                size?: number;
                                /** @description items accepted as tasks */
                                total?: number;
                                /** @description items that failed at submission (no task) */
                                rejected?: number;
                                /** @description tasks COMPLETED or FAILED */
                                done?: number;
                                counts?: {
                                    QUEUED?: number;
                                    PROCESSING?: number;
                                    COMPLETED?: number;
                                    FAILED?: number;
                                };
                                /** Format: date-time */
                                createdAt?: string;
                                /**
                                 * Format: date-time
                                 * @description the latest change to any of its tasks
                                 */
                                updatedAt?: string | null;
                                /**
                                 * Format: date-time
                                 * @description when every task was found terminal; null before
                                 */
                                completedAt?: string | null;
                                /** @description where batch.completed goes (host only); null without one */
                                webhook?: {
                                    targetHost?: string;
                                } | null;
                            };
                            /** @description the accepted items in submission order, one page */
                            items?: {
                                /** @description the item index in the submitted array */
                                index?: number;
                                /** Format: uuid */
                                taskId?: string;
                                /** @enum {string} */
                                status?: "QUEUED" | "PROCESSING" | "COMPLETED" | "FAILED";
                                /** @description the engine (canonical task type) */
                                taskType?: string;
                                /** @description the region it is served from */
                                country?: string | null;
                                /** @description What was asked: the `payload` as submitted; with include=request */
                                request?: {
                                    payload?: {
                                        [key: string]: unknown;
                                    };
                                };
                            }[];
                            /** @description pass as `cursor` for the next page; null on the last */
                            nextCursor?: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/async/task/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A task's webhook delivery log */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            taskId?: string;
                            /** @description null when the task was submitted without a webhook */
                            webhook?: {
                                /** @description host[:port] of the webhook URL (no path, query or credentials) */
                                targetHost?: string;
                                /** @enum {string} */
                                status?: "pending" | "sending" | "delivered" | "abandoned";
                                redeliveries?: number;
                                /** Format: date-time */
                                nextAttemptAt?: string | null;
                                attempts?: {
                                    delivery?: number;
                                    attempt?: number;
                                    /** Format: date-time */
                                    at?: string;
                                    latencyMs?: number | null;
                                    /** @enum {string} */
                                    outcome?: "delivered" | "retry" | "abandoned" | "undeliverable" | "in_flight";
                                    httpStatus?: number | null;
                                    errorCode?: string | null;
                                    /** Format: date-time */
                                    nextAttemptAt?: string | null;
                                }[];
                            } | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /** Send a finished task's webhook again (a new webhook-id, due at once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            taskId?: string;
                            /** @description null when the task was submitted without a webhook */
                            webhook?: {
                                /** @description host[:port] of the webhook URL (no path, query or credentials) */
                                targetHost?: string;
                                /** @enum {string} */
                                status?: "pending" | "sending" | "delivered" | "abandoned";
                                redeliveries?: number;
                                /** Format: date-time */
                                nextAttemptAt?: string | null;
                                attempts?: {
                                    delivery?: number;
                                    attempt?: number;
                                    /** Format: date-time */
                                    at?: string;
                                    latencyMs?: number | null;
                                    /** @enum {string} */
                                    outcome?: "delivered" | "retry" | "abandoned" | "undeliverable" | "in_flight";
                                    httpStatus?: number | null;
                                    errorCode?: string | null;
                                    /** Format: date-time */
                                    nextAttemptAt?: string | null;
                                }[];
                            } | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/async/batch/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A batch's webhook delivery log */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            batchId?: string;
                            /** @description null when the batch was submitted without one */
                            webhook?: {
                                /** @description host[:port] of the webhook URL (no path, query or credentials) */
                                targetHost?: string;
                                /** @enum {string} */
                                status?: "pending" | "sending" | "delivered" | "abandoned";
                                redeliveries?: number;
                                /** Format: date-time */
                                nextAttemptAt?: string | null;
                                attempts?: {
                                    delivery?: number;
                                    attempt?: number;
                                    /** Format: date-time */
                                    at?: string;
                                    latencyMs?: number | null;
                                    /** @enum {string} */
                                    outcome?: "delivered" | "retry" | "abandoned" | "undeliverable" | "in_flight";
                                    httpStatus?: number | null;
                                    errorCode?: string | null;
                                    /** Format: date-time */
                                    nextAttemptAt?: string | null;
                                }[];
                            } | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /** Send a finished batch's webhook again (a new webhook-id, due at once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            batchId?: string;
                            /** @description null when the batch was submitted without one */
                            webhook?: {
                                /** @description host[:port] of the webhook URL (no path, query or credentials) */
                                targetHost?: string;
                                /** @enum {string} */
                                status?: "pending" | "sending" | "delivered" | "abandoned";
                                redeliveries?: number;
                                /** Format: date-time */
                                nextAttemptAt?: string | null;
                                attempts?: {
                                    delivery?: number;
                                    attempt?: number;
                                    /** Format: date-time */
                                    at?: string;
                                    latencyMs?: number | null;
                                    /** @enum {string} */
                                    outcome?: "delivered" | "retry" | "abandoned" | "undeliverable" | "in_flight";
                                    httpStatus?: number | null;
                                    errorCode?: string | null;
                                    /** Format: date-time */
                                    nextAttemptAt?: string | null;
                                }[];
                            } | null;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/source-influence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a source-influence analysis */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        answer: string;
                        prompt?: string;
                        citations: (string | {
                            url: string;
                            title?: string;
                            snippet?: string;
                            position?: number;
                            label?: string;
                        })[];
                        analysis?: {
                            /** @enum {integer} */
                            version?: 1;
                            entities?: {
                                id?: string;
                                name: string;
                                role?: string;
                            }[];
                        };
                        idempotencyKey?: string;
                        webhook?: {
                            /** @description Receives a POST when the task is terminal */
                            url: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            task?: {
                                /** Format: uuid */
                                id?: string;
                                taskType?: string;
                                /** @enum {string} */
                                status?: "QUEUED" | "PROCESSING" | "COMPLETED" | "FAILED";
                                priority?: number;
                                /** Format: date-time */
                                createdAt?: string;
                                idempotencyKey?: string;
                            };
                            credits?: {
                                creditsToCharge?: number;
                                creditsCharged?: number | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/prompt-research": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a prompt-research task */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        seed: string;
                        country?: string;
                        limit?: number;
                        exclude?: string[];
                        monitorSize?: number;
                        engines?: ("CHATBOT_A" | "ASSISTANT_A" | "ANSWER_ENGINE_A" | "SEARCH_A" | "AIMODE" | "SEARCH_B_AI_BRIEF" | "SEARCH_B_AI_TAB" | "SEARCH_B" | "SEARCH_A_AIO" | "SEARCH_A_AIMODE")[];
                        brand?: string;
                        brandAliases?: string[];
                        brandDescription?: string;
                        idempotencyKey?: string;
                        webhook?: {
                            /** @description Receives a POST when the task is terminal */
                            url: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            task?: {
                                /** Format: uuid */
                                id?: string;
                                taskType?: string;
                                /** @enum {string} */
                                status?: "QUEUED" | "PROCESSING" | "COMPLETED" | "FAILED";
                                priority?: number;
                                /** Format: date-time */
                                createdAt?: string;
                                idempotencyKey?: string;
                            };
                            credits?: {
                                creditsToCharge?: number;
                                creditsCharged?: number | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness probe */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness probe: 200 when the store answers and migrations are applied */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's account: its tasks by status and engine, its webhook deliveries */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/capacity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Serving mode and region serveability per engine */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's account: tasks finished and credits charged by day and engine */
        get: {
            parameters: {
                query?: {
                    /** @description first day, included (default: 29 days before `to`) */
                    from?: string;
                    /** @description last day, included (default: today, UTC) */
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            /** Format: date */
                            from?: string;
                            /** Format: date */
                            to?: string;
                            usage?: {
                                /** Format: date */
                                day?: string;
                                engine?: string;
                                /** @description tasks that finished (COMPLETED or FAILED) that day */
                                tasks?: number;
                                /** @description credits charged for them (0 for a failed task) */
                                credits?: number;
                            }[];
                            totals?: {
                                tasks?: number;
                                credits?: number;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's account's webhook signing secret (made on first use) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success: boolean;
                            /** @description The account's current secret: every delivery is signed with it */
                            secret: string;
                            /**
                             * Format: date-time
                             * @description null for a configured secret
                             */
                            createdAt: string | null;
                            /** @description The secret the last rotation replaced, which signs too (a second `v1,` signature) until expiresAt */
                            previous: {
                                /** @description `whsec_` and the base64 of the key bytes */
                                secret: string;
                                /** Format: date-time */
                                expiresAt: string;
                            } | null;
                            /**
                             * @description `configured`: the default account's AEQ_WEBHOOK_SECRET (the first one); `account`: made by aeq
                             * @enum {string}
                             */
                            source: "account" | "configured";
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new webhook signing secret for the caller's account; the replaced one signs too for 24 hours */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success: boolean;
                            /** @description The account's current secret: every delivery is signed with it */
                            secret: string;
                            /**
                             * Format: date-time
                             * @description null for a configured secret
                             */
                            createdAt: string | null;
                            /** @description The secret the last rotation replaced, which signs too (a second `v1,` signature) until expiresAt */
                            previous: {
                                /** @description `whsec_` and the base64 of the key bytes */
                                secret: string;
                                /** Format: date-time */
                                expiresAt: string;
                            } | null;
                            /**
                             * @description `configured`: the default account's AEQ_WEBHOOK_SECRET (the first one); `account`: made by aeq
                             * @enum {string}
                             */
                            source: "account" | "configured";
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's monitors */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            monitors?: {
                                id?: string;
                                name?: string;
                                /** @enum {string} */
                                status?: "active" | "paused";
                                prompts?: string[];
                                promptResearchTaskId?: string | null;
                                engines?: string[];
                                countries?: string[];
                                brand?: {
                                    name?: string;
                                    aliases?: string[];
                                    domains?: string[];
                                };
                                competitors?: {
                                    name?: string;
                                    aliases?: string[];
                                    domains?: string[];
                                }[];
                                schedule?: {
                                    cron?: string;
                                    timezone?: string;
                                    /** Format: date-time */
                                    nextRunAt?: string | null;
                                };
                                samples?: number;
                                /** @description The webhook host (the URL is not shown: it may carry a token) */
                                webhook?: {
                                    targetHost?: string;
                                } | null;
                                tasksPerRun?: number;
                                /** Format: date-time */
                                createdAt?: string;
                                /** Format: date-time */
                                updatedAt?: string;
                            }[];
                            nextCursor?: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /** Create a visibility monitor */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        prompts?: string[];
                        promptResearchTaskId?: string;
                        engines: ("CHATBOT_A" | "ASSISTANT_A" | "ANSWER_ENGINE_A" | "SEARCH_A" | "AIMODE" | "SEARCH_B_AI_BRIEF" | "SEARCH_B_AI_TAB" | "SEARCH_B" | "SEARCH_A_AIO" | "SEARCH_A_AIMODE")[];
                        countries?: string[];
                        brand: {
                            name: string;
                            aliases?: string[];
                            domains?: string[];
                        };
                        competitors?: {
                            name: string;
                            aliases?: string[];
                            domains?: string[];
                        }[];
                        schedule?: {
                            cron: string;
                            timezone?: string;
                        };
                        /** @description Receives a signed POST after a run that raised new signals (docs/contract.md); null on an edit removes it */
                        webhook?: {
                            url: string;
                        } | null;
                        /** @description Times each prompt is asked per engine and country in a run (default 1), spread over the run (AEQ_MONITOR_SAMPLE_SPACING_SECONDS apart). prompts × engines × samples is at most 200. */
                        samples?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            monitor?: {
                                id?: string;
                                name?: string;
                                /** @enum {string} */
                                status?: "active" | "paused";
                                prompts?: string[];
                                promptResearchTaskId?: string | null;
                                engines?: string[];
                                countries?: string[];
                                brand?: {
                                    name?: string;
                                    aliases?: string[];
                                    domains?: string[];
                                };
                                competitors?: {
                                    name?: string;
                                    aliases?: string[];
                                    domains?: string[];
                                }[];
                                schedule?: {
                                    cron?: string;
                                    timezone?: string;
                                    /** Format: date-time */
                                    nextRunAt?: string | null;
                                };
                                samples?: number;
                                /** @description The webhook host (the URL is not shown: it may carry a token) */
                                webhook?: {
                                    targetHost?: string;
                                } | null;
                                tasksPerRun?: number;
                                /** Format: date-time */
                                createdAt?: string;
                                /** Format: date-time */
                                updatedAt?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitors/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A monitor */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            monitor?: {
                                id?: string;
                                name?: string;
                                /** @enum {string} */
                                status?: "active" | "paused";
                                prompts?: string[];
                                promptResearchTaskId?: string | null;
                                engines?: string[];
                                countries?: string[];
                                brand?: {
                                    name?: string;
                                    aliases?: string[];
                                    domains?: string[];
                                };
                                competitors?: {
                                    name?: string;
                                    aliases?: string[];
                                    domains?: string[];
                                }[];
                                schedule?: {
                                    cron?: string;
                                    timezone?: string;
                                    /** Format: date-time */
                                    nextRunAt?: string | null;
                                };
                                samples?: number;
                                /** @description The webhook host (the URL is not shown: it may carry a token) */
                                webhook?: {
                                    targetHost?: string;
                                } | null;
                                tasksPerRun?: number;
                                /** Format: date-time */
                                createdAt?: string;
                                /** Format: date-time */
                                updatedAt?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a monitor and its runs */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Edit, pause or resume a monitor */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        prompts?: string[];
                        promptResearchTaskId?: string;
                        engines?: ("CHATBOT_A" | "ASSISTANT_A" | "ANSWER_ENGINE_A" | "SEARCH_A" | "AIMODE" | "SEARCH_B_AI_BRIEF" | "SEARCH_B_AI_TAB" | "SEARCH_B" | "SEARCH_A_AIO" | "SEARCH_A_AIMODE")[];
                        countries?: string[];
                        brand?: {
                            name: string;
                            aliases?: string[];
                            domains?: string[];
                        };
                        competitors?: {
                            name: string;
                            aliases?: string[];
                            domains?: string[];
                        }[];
                        schedule?: {
                            cron: string;
                            timezone?: string;
                        };
                        /** @description Receives a signed POST after a run that raised new signals (docs/contract.md); null on an edit removes it */
                        webhook?: {
                            url: string;
                        } | null;
                        /** @description Times each prompt is asked per engine and country in a run (default 1), spread over the run (AEQ_MONITOR_SAMPLE_SPACING_SECONDS apart). prompts × engines × samples is at most 200. */
                        samples?: number;
                        /** @enum {string} */
                        status?: "active" | "paused";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            monitor?: {
                                id?: string;
                                name?: string;
                                /** @enum {string} */
                                status?: "active" | "paused";
                                prompts?: string[];
                                promptResearchTaskId?: string | null;
                                engines?: string[];
                                countries?: string[];
                                brand?: {
                                    name?: string;
                                    aliases?: string[];
                                    domains?: string[];
                                };
                                competitors?: {
                                    name?: string;
                                    aliases?: string[];
                                    domains?: string[];
                                }[];
                                schedule?: {
                                    cron?: string;
                                    timezone?: string;
                                    /** Format: date-time */
                                    nextRunAt?: string | null;
                                };
                                samples?: number;
                                /** @description The webhook host (the URL is not shown: it may carry a token) */
                                webhook?: {
                                    targetHost?: string;
                                } | null;
                                tasksPerRun?: number;
                                /** Format: date-time */
                                createdAt?: string;
                                /** Format: date-time */
                                updatedAt?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/monitors/{id}/competitors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Track one more competitor, e.g. a name its answers named (GET /v1/monitors/{id}/discovered)
         * @description Adds the brand to the monitor's competitors from its next run. 409 COMPETITOR_EXISTS when the monitor already tracks the name or an alias; 422 over 20 competitors.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        aliases?: string[];
                        domains?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            monitor?: {
                                id?: string;
                                name?: string;
                                /** @enum {string} */
                                status?: "active" | "paused";
                                prompts?: string[];
                                promptResearchTaskId?: string | null;
                                engines?: string[];
                                countries?: string[];
                                brand?: {
                                    name?: string;
                                    aliases?: string[];
                                    domains?: string[];
                                };
                                competitors?: {
                                    name?: string;
                                    aliases?: string[];
                                    domains?: string[];
                                }[];
                                schedule?: {
                                    cron?: string;
                                    timezone?: string;
                                    /** Format: date-time */
                                    nextRunAt?: string | null;
                                };
                                samples?: number;
                                /** @description The webhook host (the URL is not shown: it may carry a token) */
                                webhook?: {
                                    targetHost?: string;
                                } | null;
                                tasksPerRun?: number;
                                /** Format: date-time */
                                createdAt?: string;
                                /** Format: date-time */
                                updatedAt?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitors/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A monitor's runs with their progress, newest first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    include?: "results";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            runs?: {
                                id?: string;
                                /** Format: date-time */
                                slotAt?: string;
                                /** @enum {string} */
                                status?: "starting" | "running" | "completed";
                                /** @enum {string} */
                                trigger?: "schedule" | "manual";
                                /** @description the batch of the run's tasks (GET /v1/async/batch/{id}) */
                                batchId?: string;
                                tasks?: number;
                                progress?: {
                                    [key: string]: unknown;
                                };
                                /** Format: date-time */
                                createdAt?: string;
                                /** Format: date-time */
                                completedAt?: string | null;
                                results?: ({
                                    taskId?: string;
                                    prompt?: string;
                                    engine?: string;
                                    country?: string | null;
                                    /** @enum {string} */
                                    status?: "COMPLETED" | "FAILED";
                                    text?: string;
                                    /** @description cited URLs, in order */
                                    sources?: string[];
                                    error?: string | null;
                                    /** @description the searches the engine ran; absent where the engine does not say (docs/contract.md#answer-signals) */
                                    searchQueries?: string[];
                                    /** @description whether the engine searched; absent where it does not say */
                                    searchTriggered?: boolean;
                                    /** @description URLs the engine read but did not cite; absent where it does not list them */
                                    retrieved?: string[];
                                    /** @description where `text` names a tracked brand, as the figures counted it: UTF-16 offsets */
                                    mentions?: {
                                        start?: number;
                                        end?: number;
                                        brand?: string;
                                        /** @enum {string} */
                                        role?: "brand" | "competitor";
                                    }[];
                                    /** @description the brand's rank by first mention; null when not named */
                                    position?: number | null;
                                } & {
                                    [key: string]: unknown;
                                })[];
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Run a monitor now, outside its schedule
         * @description Starts a run at once, made and submitted as a scheduled one (same tasks, size bound and usage). 409 MONITOR_RUN_IN_PROGRESS while a run of the monitor is starting or running. A paused monitor runs too (pausing stops its schedule); the schedule is left as it is.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            run?: {
                                id?: string;
                                /** Format: date-time */
                                slotAt?: string;
                                /** @enum {string} */
                                status?: "starting" | "running" | "completed";
                                /** @enum {string} */
                                trigger?: "schedule" | "manual";
                                /** @description the batch of the run's tasks (GET /v1/async/batch/{id}) */
                                batchId?: string;
                                tasks?: number;
                                progress?: {
                                    [key: string]: unknown;
                                };
                                /** Format: date-time */
                                createdAt?: string;
                                /** Format: date-time */
                                completedAt?: string | null;
                                results?: ({
                                    taskId?: string;
                                    prompt?: string;
                                    engine?: string;
                                    country?: string | null;
                                    /** @enum {string} */
                                    status?: "COMPLETED" | "FAILED";
                                    text?: string;
                                    /** @description cited URLs, in order */
                                    sources?: string[];
                                    error?: string | null;
                                    /** @description the searches the engine ran; absent where the engine does not say (docs/contract.md#answer-signals) */
                                    searchQueries?: string[];
                                    /** @description whether the engine searched; absent where it does not say */
                                    searchTriggered?: boolean;
                                    /** @description URLs the engine read but did not cite; absent where it does not list them */
                                    retrieved?: string[];
                                    /** @description where `text` names a tracked brand, as the figures counted it: UTF-16 offsets */
                                    mentions?: {
                                        start?: number;
                                        end?: number;
                                        brand?: string;
                                        /** @enum {string} */
                                        role?: "brand" | "competitor";
                                    }[];
                                    /** @description the brand's rank by first mention; null when not named */
                                    position?: number | null;
                                } & {
                                    [key: string]: unknown;
                                })[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitors/{id}/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A monitor's visibility figures over time, per engine and country (docs/analysis.md §6) */
        get: {
            parameters: {
                query?: {
                    /** @description RFC 3339 date-time: runs scheduled at or after it */
                    from?: string;
                    /** @description RFC 3339 date-time: runs scheduled before it */
                    to?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            monitorId?: string;
                            series?: {
                                runId?: string;
                                /** Format: date-time */
                                slotAt?: string;
                                engine?: string;
                                country?: string | null;
                                mentionRate?: number | null;
                                avgFirstMentionPosition?: number | null;
                                avgFirstMentionOffset?: number | null;
                                shareOfVoice?: number | null;
                                ownCitationShare?: number | null;
                                /** @description Answers that searched the web over the answers whose engine says whether it searched; null when no engine of the point says, and absent from runs saved before visibility/1.3.0 (docs/analysis.md §6.9) */
                                searchRate?: number | null;
                                /** @description 95% intervals of the brand's figures: Wilson on the effective sample for proportions, a bootstrap over prompts for share of voice and position (docs/analysis.md §6.6). Null for runs saved before intervals were kept (methodVersion before visibility/1.2.0). */
                                intervals?: {
                                    level?: number;
                                    mentionRate?: {
                                        low?: number;
                                        high?: number;
                                    } | null;
                                    shareOfVoice?: {
                                        low?: number;
                                        high?: number;
                                    } | null;
                                    avgFirstMentionPosition?: {
                                        low?: number;
                                        high?: number;
                                    } | null;
                                    ownCitationShare?: {
                                        low?: number;
                                        high?: number;
                                    } | null;
                                    searchRate?: {
                                        low?: number;
                                        high?: number;
                                    } | null;
                                } | null;
                                /** @description Per cited domain: citations, share of all citations, answers citing it, `citationRate` (answers citing it over all answers) and `retrievalRate` (answers that read it, cited or not, over the answers whose engine lists what it read; null where none does), each with its interval (docs/analysis.md §6.9) */
                                topCitedDomains?: {
                                    [key: string]: unknown;
                                }[];
                                /** @description The domains the answers read, cited or not, by answers that read them, with `citedAnswers` and `retrievalRate` (docs/analysis.md §6.9); empty when no engine of the point lists what it read */
                                topRetrievedDomains?: {
                                    [key: string]: unknown;
                                }[];
                                brands?: {
                                    [key: string]: unknown;
                                }[];
                                counts?: {
                                    [key: string]: unknown;
                                };
                                methodVersion?: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitors/{id}/discovered": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Brands and domains the monitor's answers name or cite that it does not track (docs/analysis.md §6.8)
         * @description Over the latest 30 runs of the window: each name with the answers naming it, its share, position, the engines and its share per run; each uncited-by-a-tracked-brand domain likewise. Names are found without a model and are suggestions (their measured precision is in docs/analysis.md §6.8); track one with `POST /v1/monitors/{id}/competitors`.
         */
        get: {
            parameters: {
                query?: {
                    /** @description RFC 3339 date-time: runs scheduled at or after it */
                    from?: string;
                    /** @description RFC 3339 date-time: runs scheduled before it */
                    to?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            monitorId?: string;
                            methodVersion?: string;
                            /** @description Runs read: the latest 30 of the window */
                            runs?: number;
                            /** @description Answers of those runs: the denominator of a name's share */
                            answers?: number;
                            names?: {
                                name?: string;
                                key?: string;
                                answers?: number;
                                share?: number;
                                avgPosition?: number;
                                engines?: string[];
                                runsNamed?: number;
                                /** @description Per run read, oldest first: its share (null when the run had no answers or citations there) */
                                trend?: {
                                    runId?: string;
                                    /** Format: date-time */
                                    slotAt?: string;
                                    share?: number | null;
                                }[];
                            }[];
                            domains?: {
                                domain?: string;
                                citations?: number;
                                share?: number;
                                answers?: number;
                                engines?: string[];
                                runsCited?: number;
                                /** @description Per run read, oldest first: its share (null when the run had no answers or citations there) */
                                trend?: {
                                    runId?: string;
                                    /** Format: date-time */
                                    slotAt?: string;
                                    share?: number | null;
                                }[];
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitors/{id}/signals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A monitor's signals: changes of its figures that held against their baseline (docs/analysis.md §6.7)
         * @description Each run is tested against its last 7 runs (at least 3), every figure of every tracked brand, engine and country, with the false discovery rate held at 5% over the figures of the run. Newest first; `from` and `to` bound the runs (a signal is listed if it still held at or after `from`).
         */
        get: {
            parameters: {
                query?: {
                    /** @description RFC 3339 date-time: runs scheduled at or after it */
                    from?: string;
                    /** @description RFC 3339 date-time: runs scheduled before it */
                    to?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success?: boolean;
                            monitorId?: string;
                            /** @description The false discovery rate held over the figures of each run */
                            fdr?: number;
                            signals?: {
                                /** @enum {string} */
                                figure?: "mentionRate" | "shareOfVoice" | "citationShare" | "avgFirstMentionPosition";
                                brand?: string;
                                /** @enum {string} */
                                role?: "brand" | "competitor";
                                engine?: string;
                                country?: string | null;
                                /** @enum {string} */
                                direction?: "up" | "down";
                                /** @description The baseline mean when the change was first seen */
                                before?: number;
                                /** @description The latest value while it held */
                                after?: number;
                                interval?: {
                                    low?: number;
                                    high?: number;
                                };
                                baselineRuns?: number;
                                pValue?: number;
                                /** @description Benjamini–Hochberg adjusted p-value over the run */
                                qValue?: number;
                                firstSeen?: {
                                    runId?: string;
                                    /** Format: date-time */
                                    slotAt?: string;
                                };
                                lastSeen?: {
                                    runId?: string;
                                    /** Format: date-time */
                                    slotAt?: string;
                                };
                                runs?: number;
                                prompts?: {
                                    prompt?: string;
                                    before?: number;
                                    after?: number;
                                }[];
                                domains?: {
                                    domain?: string;
                                    before?: number;
                                    after?: number;
                                }[];
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitors/{id}/metrics.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A monitor's figures with their 95% intervals as CSV, one row per figure, brand or domain
         * @description The series of `/metrics` in long form (columns in docs/analysis.md §6.6); text cells that a spreadsheet would read as a formula get a leading apostrophe.
         */
        get: {
            parameters: {
                query?: {
                    /** @description RFC 3339 date-time: runs scheduled at or after it */
                    from?: string;
                    /** @description RFC 3339 date-time: runs scheduled before it */
                    to?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description CSV (RFC 4180), UTF-8 */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/csv": string;
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/csv": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/csv": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/csv": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * MCP (Model Context Protocol) over streamable HTTP, stateless
         * @description One JSON-RPC message per POST (Accept: application/json, text/event-stream), as an MCP client sends them; the tools and resources act as the key's account through this API (docs/mcp.md). 403 FORBIDDEN_HOST / FORBIDDEN_ORIGIN: DNS-rebinding and cross-origin guard; 503 MCP_BUSY: too many MCP requests in flight. GET and DELETE answer 405: there are no sessions.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The JSON-RPC answer, as JSON or as an event stream (with progress notifications) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": unknown;
                    };
                };
                /** @description A notification or response accepted (no body) */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": unknown;
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success?: false;
                            error?: {
                                code?: string;
                                message?: string;
                                details?: unknown;
                                /** Format: date-time */
                                timestamp?: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description The result of a SOURCE_INFLUENCE task (docs/analysis.md#s2-12) */
        SourceInfluenceResult: {
            /** @enum {integer} */
            resultVersion: 2;
            methodVersion: string;
            /** @description the pages (and model) came from the sandbox's simulators */
            simulated: boolean;
            /** @enum {string} */
            language: "ko" | "en" | "und";
            answer: {
                chars: number;
                units: number;
                words: number;
                citationMarkers: number;
                invalidMarkers: {
                    marker: string;
                    unitIndex: number;
                }[];
                unmatchedLinks: {
                    url: string;
                    unitIndex: number;
                }[];
                referencesBlock: boolean;
            };
            summary: {
                sources: number;
                sourcesWithText: number;
                sourcesSnippetOnly: number;
                sourcesWithoutText: number;
                attributedShare: number;
                unattributedShare: number;
                citationCoverage: number | null;
                citationRecall: number | null;
                citationPrecision: number | null;
                groundedShare: number | null;
                /** @enum {string} */
                alignmentMethod: "lexical" | "lexical+model_check";
                /** @enum {string} */
                judge: "lexical" | "lexical+model" | "model";
                judgeModel: string | null;
                /** @description the learned judge's weights version; null when the thresholds judged */
                judgeWeights: string | null;
                /** @description whether the judge behind the labels was measured on the held-out evaluation sets: `judge` is `model` once the model labelled any pair, and the model is reported unmeasured (docs/analysis.md, The model judge) */
                judgeEvaluation: {
                    /** @enum {string} */
                    judge: "lexical" | "model";
                    measured: boolean;
                    note: string;
                };
                claims: number;
                miscitedClaims: number;
                contradictedClaims: number;
                topSourceId: string | null;
            };
            sources: {
                /** @description `c1`, `c2`, … in the order of the request */
                sourceId: string;
                inputIndex: number;
                position: number | null;
                url: string;
                finalUrl: string;
                host: string;
                registrableDomain: string;
                title: string | null;
                /** @description the source with the same URL, whose markers these count for */
                duplicateOf: string | null;
                fetch: {
                    /** @enum {string} */
                    status: "ok" | "http_error" | "timeout" | "blocked" | "unsupported_content_type" | "too_large" | "invalid_url" | "ssrf_refused" | "network_error" | "empty_content" | "duplicate" | "not_fetched";
                    httpStatus: number | null;
                    contentType: string | null;
                    bytes: number;
                    fromCache: boolean;
                    short: boolean;
                };
                text: {
                    /**
                     * @description what the source was aligned against
                     * @enum {string}
                     */
                    source: "extracted" | "body_fallback" | "snippet" | "title" | "none";
                    chars: number;
                    passages: number;
                    truncated: boolean;
                    /** @enum {string} */
                    language: "ko" | "en" | "und";
                };
                influence: {
                    share: number;
                    shareOfAttributed: number | null;
                    uncitedShare: number;
                    score: number;
                    rank: number;
                    /**
                     * @description never more than the claims show: `high` needs a claim the source supports fully
                     * @enum {string}
                     */
                    level: "high" | "medium" | "low" | "none";
                    /** @enum {string} */
                    levelByShare: "high" | "medium" | "low" | "none";
                    /** @description why `level` is below `levelByShare` */
                    levelNote: string | null;
                };
                /** @description the GEO paper's measures; all null when no citation of the answer is valid */
                geo: {
                    wordCount: number | null;
                    positionAdjustedWordCount: number | null;
                    normalizedWordCount: number | null;
                    normalizedPositionAdjustedWordCount: number | null;
                    subjective: {
                        /** @enum {string} */
                        basis: "lexical_proxies";
                        relevance: number | null;
                        influence: number;
                        uniqueness: number;
                        position: number;
                        count: number;
                        diversity: number;
                        /**
                         * @description no text measure stands for it
                         * @enum {object|null}
                         */
                        clickLikelihood: never | null;
                        impression: number;
                    } | null;
                };
                citations: {
                    count: number;
                    citedUnits: number;
                    firstCitedUnit: number | null;
                    citationShare: number | null;
                };
                content: {
                    supportedUnits: number;
                    partialUnits: number;
                    bestSupport: number;
                    uniqueSupportShare: number;
                    usedWithoutCitation: boolean;
                    uncitedSupportedUnits: number;
                    contradictedUnits: number;
                    relevanceToPrompt: number | null;
                };
                /** @description the (up to) three answer units it weighs most in */
                evidence: {
                    unitIndex: number;
                    answerExcerpt: string;
                    sourceExcerpt: string | null;
                    support: number;
                    /** @enum {string} */
                    level: "full" | "partial" | "none";
                    cited: boolean;
                }[];
            }[];
            /** @description the per-claim view: every unit of the answer */
            claims: {
                claimId: string;
                index: number;
                text: string;
                start: number;
                end: number;
                words: number;
                /** @description fewer than 3 content words: not judged */
                trivial: boolean;
                /** @description the sources its markers name */
                cites: string[];
                miscited: boolean;
                supportedBy: string[];
                uncitedSupport: string[];
                contradictedBy: string[];
                /** @description the judge's label for every readable source */
                sources: {
                    sourceId: string;
                    cited: boolean;
                    /** @enum {string} */
                    label: "supported" | "partial" | "unsupported" | "contradicted";
                    /** @description calibrated probability that the label is right (the learned judge); null for a model label or a rule */
                    confidence: number | null;
                    score: number;
                    /** @description expected support, P(supported) + ½·P(partial): the source's weight rests on it */
                    support: number;
                    evidence: string | null;
                    /**
                     * @description why it is contradicted
                     * @enum {string|null}
                     */
                    reason: "negation" | "antonym" | "number" | "date" | "name" | null;
                    /** @description the differing pieces of a contradiction */
                    changed: {
                        claim: string;
                        page: string;
                    } | null;
                    /** @enum {string} */
                    judge: "lexical" | "model";
                    weight: number;
                }[];
            }[];
            domains: {
                registrableDomain: string;
                sourceIds: string[];
                urls: number;
                influenceShare: number;
                citationCount: number;
            }[];
            warnings: {
                code: string;
                message: string;
                sourceId?: string;
            }[];
            usage: {
                /** @description model tokens by purpose, in pipeline order; zeros without a model */
                modelTokens: {
                    input: number;
                    output: number;
                    /** @description some call reported no usage, so its tokens are estimated */
                    estimated: boolean;
                    calls: {
                        /** @enum {string} */
                        purpose: "model_check" | "requirements" | "requirement_coverage" | "brand_decisions" | "source_classification";
                        model: string;
                        count: number;
                        input: number;
                        output: number;
                    }[];
                };
                sourceFetches: {
                    attempted: number;
                    succeeded: number;
                    failed: number;
                    retries: number;
                    cacheHits: number;
                    bytes: number;
                };
                credits: {
                    held: number;
                    charged: number;
                };
            };
            /** @description The extended analysis (docs/analysis.md#s2-11); only with `analysis.version = 1` */
            analysis?: {
                /** @enum {integer} */
                version: 1;
                /**
                 * @description `ok` when every component is, `partial` when any is ok or partial, else the first failure
                 * @enum {string}
                 */
                status: "ok" | "partial" | "insufficient_input" | "model_error" | "timeout" | "invalid_output" | "budget_exceeded" | "internal_error";
                components: {
                    /** @enum {string} */
                    questionRequirements: "ok" | "partial" | "insufficient_input" | "model_error" | "timeout" | "invalid_output" | "budget_exceeded" | "internal_error";
                    /** @enum {string} */
                    brandDecisions: "ok" | "partial" | "insufficient_input" | "model_error" | "timeout" | "invalid_output" | "budget_exceeded" | "internal_error";
                    /** @enum {string} */
                    sourceMetadata: "ok" | "partial" | "insufficient_input" | "model_error" | "timeout" | "invalid_output" | "budget_exceeded" | "internal_error";
                };
                errors: {
                    /** @enum {string} */
                    component: "questionRequirements" | "brandDecisions" | "sourceMetadata";
                    code: string;
                    message: string;
                }[];
                budget: {
                    tokenLimit: number;
                    tokensUsed: number;
                };
                questionRequirements: {
                    items: {
                        id: string;
                        text: string;
                        /** @description the words of the prompt it rests on */
                        quote: string;
                        /** @enum {string} */
                        type: "budget" | "location" | "time" | "quantity" | "comparison_set" | "topic" | "criterion" | "audience" | "format" | "other";
                        mandatory: boolean;
                        /**
                         * @description whether the answer addresses it
                         * @enum {string}
                         */
                        coverage: "addressed" | "partial" | "not_addressed";
                        /** @description the answer units that address it */
                        evidenceUnits: number[];
                        supportingSourceIds: string[];
                    }[];
                    coverageRate: number | null;
                };
                brandDecisions: {
                    entities: {
                        entityId: string;
                        name: string;
                        role: string;
                        mentioned: boolean;
                        mentionCount: number;
                        firstMention: {
                            unitIndex: number;
                            charOffset: number;
                        } | null;
                        mentionOrder: number | null;
                        listRank: number | null;
                        shareOfVoice: number | null;
                        /**
                         * @description `absent` exactly when not mentioned; null when a mentioned brand was not judged (no model)
                         * @enum {string|null}
                         */
                        decision: "recommended" | "mentioned" | "not_recommended" | "mixed" | "absent" | null;
                        topPick: boolean | null;
                        sentiment: number | null;
                        reasons: {
                            /** @enum {string} */
                            polarity: "pro" | "con";
                            summary: string;
                            quote: string;
                            unitIndex: number;
                            sourceIds: string[];
                        }[];
                    }[];
                    otherBrands: {
                        name: string;
                        /** @enum {string} */
                        decision: "recommended" | "mentioned" | "not_recommended" | "mixed";
                        mentionCount: number;
                    }[];
                };
                sourceMetadata: {
                    sourceId: string;
                    ownership: {
                        /** @enum {string} */
                        relation: "owned" | "not_owned" | "unknown";
                        entityId: string | null;
                        /** @enum {string|null} */
                        method: "domain_label" | "site_name" | "publisher_jsonld" | "path_segment" | "model" | null;
                        /** @description the model's stated confidence (at most 0.7) when `method` is `model`; else null */
                        confidence: number | null;
                    };
                    /** @enum {string} */
                    sourceType: "institutional" | "reference" | "ugc_forum" | "ugc_social" | "review_site" | "marketplace" | "news" | "editorial" | "vendor_page" | "other" | "unknown";
                    /** @enum {string} */
                    mediaClass: "owned" | "earned" | "ugc" | "vendor" | "unknown";
                    /** @enum {string|null} */
                    typeMethod: "domain_list" | "structured_data" | "url_pattern" | "model" | null;
                    /** @description YYYY-MM-DD */
                    publishedAt: string | null;
                    /** @description YYYY-MM-DD */
                    modifiedAt: string | null;
                    dateSource: string;
                    author: {
                        name: string;
                        /** @enum {string} */
                        kind: "person" | "organization" | "unknown";
                        /** @enum {string} */
                        source: "json_ld" | "meta" | "html" | "readability" | "text";
                    } | null;
                    publisher: string | null;
                    siteName: string | null;
                    language: string | null;
                }[];
                /** @description influence share per source type, and `unattributed` */
                sourceTypeShares: {
                    [key: string]: number;
                };
                /** @description influence share per media class, and `unattributed` */
                mediaClassShares: {
                    [key: string]: number;
                };
            };
        };
        /** @description The result of a PROMPT_RESEARCH task (docs/analysis.md#s3-13) */
        PromptResearchResult: {
            /** @enum {integer} */
            resultVersion: 1;
            methodVersion: string;
            /** @description some upstream the task used is the sandbox's simulator */
            simulated: boolean;
            input: {
                seed: string;
                /** @enum {string} */
                country: "KR" | "US";
                /** @enum {string} */
                language: "ko" | "en";
                limit: number;
                exclude: string[];
                brand: string | null;
                brandAliases: string[];
                hasBrandDescription: boolean;
                monitorSize: number;
                engines: string[];
            };
            /**
             * @description `keyword_volume` when every returned question has an actual volume, `mixed` when some have one
             * @enum {string}
             */
            demandBasis: "keyword_volume" | "mixed" | "autocomplete";
            /** @description how well autocomplete evidence orders the clusters that have a keyword-tool volume; null with fewer than 8 */
            demandCheck: {
                /** @enum {string} */
                method: "spearman";
                /** @enum {string} */
                ranking: "autocomplete_evidence";
                /** @enum {string} */
                against: "monthly_volume";
                volumeSource: string;
                n: number;
                rho: number | null;
                kendallTauB: number | null;
            } | null;
            questions: {
                id: string;
                rank: number;
                text: string;
                /**
                 * @description asked as a suggestion said it, or put as a question by a template
                 * @enum {string}
                 */
                textOrigin: "observed" | "templated";
                query: string;
                variants: string[];
                /** @enum {string} */
                intent: "comparison" | "recommendation" | "transactional" | "definition" | "how_to" | "problem" | "other";
                modifier: string | null;
                demand: {
                    score: number;
                    /** @enum {string} */
                    scoreBasis: "monthly_volume" | "autocomplete_evidence";
                    tier: number;
                    /** @enum {string} */
                    tierBasis: "absolute" | "relative";
                    monthlyVolume: number | null;
                    volumeSource: string | null;
                    volumeIsEstimate: boolean;
                    lowVolume: boolean;
                    evidence: {
                        autocompleteScore: number;
                        appearances: number;
                        providers: ("google" | "naver")[];
                        bestRank: number;
                        seenForSeed: boolean;
                    };
                };
                /** @description brand fit; null without a brand description */
                fit: {
                    score: number | null;
                    /** @enum {string} */
                    method: "lexical";
                    /** @enum {string} */
                    basis: "none" | "description_terms";
                    terms: string[];
                } | null;
                /**
                 * @description the first ranking criterion that puts it above the next question; null for the last or a tie
                 * @enum {string|null}
                 */
                aboveNextBy: "backfill" | "hasVolume" | "score" | "monthlyVolume" | "evidence" | "providers" | "bestRank" | "appearances" | "fit" | "textLength" | "text" | null;
            }[];
            monitorSet: {
                size: number;
                requestedSize: number;
                engines: string[];
                /** @description size × engines */
                plannedTasks: number;
                /** @enum {string} */
                method: "mmr";
                parameters: {
                    lambda: number;
                    demandWeight: number;
                    fitWeight: number;
                    intentBonus: number;
                    maxSimilarity: number;
                };
                items: {
                    order: number;
                    /** @description the returned question it is; null for a cluster ranked below the limit */
                    questionId: string | null;
                    text: string;
                    /** @enum {string} */
                    intent: "comparison" | "recommendation" | "transactional" | "definition" | "how_to" | "problem" | "other";
                    demandScore: number;
                    fitScore: number | null;
                    value: number;
                    maxSimilarityToSelected: number;
                }[];
                /** @description prompts per intent, for the intents the set covers */
                intentCoverage: {
                    comparison?: number;
                    recommendation?: number;
                    transactional?: number;
                    definition?: number;
                    how_to?: number;
                    problem?: number;
                    other?: number;
                };
            };
            stats: {
                requests: number;
                suggestions: number;
                navigationalDropped: number;
                scriptDropped: number;
                nonQuestionDropped: number;
                excludedByBrand: number;
                excludedByTerms: number;
                clusters: number;
                returned: number;
            };
            providers: {
                name: string;
                /** @enum {string} */
                status: "ok" | "partial" | "rate_limited" | "blocked" | "error" | "disabled" | "not_configured";
                requests: number;
                failures: number;
            }[];
            warnings: {
                /** @enum {string} */
                code: "FEWER_THAN_LIMIT" | "MONITOR_SET_SMALLER" | "SEED_CONTAINS_BRAND" | "SEED_EXCLUDED" | "PROVIDER_RATE_LIMITED" | "PROVIDER_BLOCKED" | "PROVIDER_ERROR" | "NO_SUGGESTIONS" | "VOLUME_LOOKUP_FAILED" | "NO_FIT_BASIS";
                message: string;
                provider?: string;
            }[];
            usage: {
                autocompleteRequests: {
                    google: number;
                    naver: number;
                    bing: number;
                };
                volumeRequests: {
                    naverSearchad: number;
                    googleAds: number;
                };
                serpRequests: number;
                cacheHits: number;
                /** @description model tokens by purpose, in pipeline order; zeros without a model */
                modelTokens: {
                    input: number;
                    output: number;
                    /** @description some call reported no usage, so its tokens are estimated */
                    estimated: boolean;
                    calls: {
                        /** @enum {string} */
                        purpose: "model_check" | "requirements" | "requirement_coverage" | "brand_decisions" | "source_classification";
                        model: string;
                        count: number;
                        input: number;
                        output: number;
                    }[];
                };
            };
        };
        /** @description An engine's answer. The answer signals are present on engines that write an answer and null where the engine cannot see them (docs/contract.md#answer-signals); other members are the engine's own */
        EngineAnswer: {
            text: string;
            /** @description absent when include.markdown is false */
            markdown?: string;
            /** @description the cited sources, numbered as the markers */
            sources: {
                position: number;
                url: string;
                label: string;
            }[];
            /** @description the searches the engine ran, in order */
            searchQueries?: string[] | null;
            /** @description whether the engine searched the web for this answer */
            searchTriggered?: boolean | null;
            /** @description pages the engine read but did not cite */
            retrievedSources?: {
                position: number;
                url: string;
                title: string | null;
                query: string | null;
            }[] | null;
            /** @description product and shopping cards */
            products?: {
                position: number;
                title: string;
                url: string | null;
                /** @description as shown */
                price: string | null;
                currency: string | null;
                merchant: string | null;
                rating: number | null;
            }[] | null;
            /** @description sponsored units */
            ads?: {
                position: number;
                title: string;
                url: string | null;
            }[] | null;
            /** @description local cards */
            places?: {
                position: number;
                name: string;
                url: string | null;
                address: string | null;
                rating: number | null;
            }[] | null;
            /** @description the region asked for and the one served (docs/contract.md#region) */
            region?: {
                /** @description the task's country (ISO 3166-1 alpha-2), null when the client named none */
                requested: string | null;
                /** @description the country of the exit address the upstream was called through */
                exit: string;
                /** @description where the engine itself says it served the answer for; null when it says nothing */
                engine: {
                    country: string | null;
                    language: string | null;
                    /** @description which of its own signals the engine said it in */
                    signal: string;
                } | null;
            };
            /**
             * @description app surface only (docs/contract.md#surfaces): read from the app's own stream, or from the page when the stream could not be read
             * @enum {string}
             */
            capture?: "stream" | "dom";
        } & {
            [key: string]: unknown;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
