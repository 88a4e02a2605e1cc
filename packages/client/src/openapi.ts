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
                            };
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
                            };
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
                            /** @description Engine result; present when COMPLETED */
                            response?: {
                                [key: string]: unknown;
                            };
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
                                response?: {
                                    [key: string]: unknown;
                                };
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
                                topCitedDomains?: {
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
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
