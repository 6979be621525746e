/**
 * @generated from docs/openapi.json by openapi-typescript (`npm run openapi`, ADR 0022).
 * Do not edit: change the routes, DTOs or scripts/openapi and run `npm run openapi` again.
 */

export interface paths {
  '/activity': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List */
    get: operations['activityList'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/activity/recent-count': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Recent count */
    get: operations['activityRecentCount'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/activity/stats': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Stats */
    get: operations['activityStats'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/activity/types': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Types */
    get: operations['activityTypes'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/activity/upcoming': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Upcoming */
    get: operations['activityUpcoming'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/analytics/campaign-stats': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Campaign stats
     * @description One campaign with `campaignId`; without it, every campaign of the project, a page at a time.
     */
    get: operations['analyticsCampaignStats'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/analytics/timeseries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Timeseries */
    get: operations['analyticsTimeseries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/analytics/top-campaigns': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Top campaigns */
    get: operations['analyticsTopCampaigns'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/analytics/top-events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Top events
     * @description Most frequent custom event names of the project: over all time, or, with `from`/`to`, over the UTC days the range touches (whole days; at most 400 of them).
     */
    get: operations['topEventsTopEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/login': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Log in */
    post: operations['authLogIn'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/logout': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Log out
     * @description Clears the cookie and ends the session server-side: the old cookie no longer works anywhere.
     */
    get: operations['authLogOut'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/oauth-config': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Oauth config
     * @description The OAuth providers configured (client id and secret set; none by default): log in at /auth/oauth/:id.
     */
    get: operations['authOauthConfig'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/oauth/{provider}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Start an OAuth login (GitHub or Google)
     * @description Redirects to the provider's consent page with a fresh `state`, also set in a cookie for the callback.
     */
    get: operations['oAuthStart'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/oauth/{provider}/callback': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The provider's answer to an OAuth login
     * @description The provider's answer: the `state` must be the one this browser's cookie holds for this provider (else refused before anything is exchanged), then the code is exchanged, the verified address read, the account logged in or signed up, and the session cookie set as by POST /auth/login.
     */
    get: operations['oAuthCallback'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/request-password-reset': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Request password reset
     * @description Same answer whether or not the email has an account.
     */
    post: operations['authRequestPasswordReset'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/request-verification': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Request verification */
    post: operations['authRequestVerification'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/reset-password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Reset password
     * @description Sets the new password; every existing session of the account ends.
     */
    post: operations['authResetPassword'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/signup': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign up
     * @description Creates the account and starts a session; sends the verification email, or, with an `invitationToken`, creates it verified and a member of the inviting project.
     */
    post: operations['authSignUp'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/verify-email': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Verify email */
    post: operations['authVerifyEmail'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/campaigns': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List */
    get: operations['campaignsList'];
    put?: never;
    /**
     * Create
     * @description The spec's envelope for this one route: `{success: true, data}`.
     */
    post: operations['campaignsCreate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/campaigns/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get */
    get: operations['campaignsGet'];
    /** Replace */
    put: operations['campaignsReplace'];
    post?: never;
    /** Remove */
    delete: operations['campaignsRemove'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/campaigns/{id}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Cancel */
    post: operations['deliveryCancel'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/campaigns/{id}/duplicate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Duplicate */
    post: operations['campaignsDuplicate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/campaigns/{id}/recipients': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Recipients page */
    get: operations['recipientsRecipientsPage'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/campaigns/{id}/recipients.csv': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Recipients csv */
    get: operations['recipientsRecipientsCsv'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/campaigns/{id}/send': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Send */
    post: operations['deliverySend'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/campaigns/{id}/stats': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Stats */
    get: operations['recipientsStats'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/campaigns/{id}/test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Test */
    post: operations['deliveryTest'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/config': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Config */
    get: operations['configConfig'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/contacts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List */
    get: operations['contactsList'];
    put?: never;
    /**
     * Upsert
     * @description Upsert by email: 201 when created, 200 when it existed.
     */
    post: operations['contactsUpsert'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/contacts/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get */
    get: operations['contactsGet'];
    put?: never;
    post?: never;
    /** Delete */
    delete: operations['contactsDelete'];
    options?: never;
    head?: never;
    /** Update */
    patch: operations['contactsUpdate'];
    trace?: never;
  };
  '/contacts/bulk-delete': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Delete */
    post: operations['bulkDelete'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/contacts/bulk-subscribe': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Subscribe */
    post: operations['bulkSubscribe'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/contacts/bulk-unsubscribe': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Unsubscribe */
    post: operations['bulkUnsubscribe'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/contacts/bulk/{jobId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get */
    get: operations['bulkGet'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/contacts/fields': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List */
    get: operations['fieldsList'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/contacts/fields/{field}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Delete */
    delete: operations['fieldsDelete'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/contacts/fields/{field}/usage': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Usage */
    get: operations['fieldsUsage'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/contacts/fields/{field}/values': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Values */
    get: operations['fieldsValues'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/contacts/import': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start
     * @description multipart/form-data with one file part (UTF-8 CSV, at most 5 MB); answers 202 {jobId, status}. `verify=true` runs the /v1/verify checks on every address (a verdict per row); with `skipInvalid=true` too, rows whose domain takes no mail or is disposable are not imported.
     */
    post: operations['contactImportsStart'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/contacts/import/{jobId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get */
    get: operations['contactImportsGet'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/contacts/lookup': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Lookup */
    post: operations['contactsLookup'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/docs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * API reference page
     * @description The API reference page: the quick start, then every operation by service.
     */
    get: operations['apiReferencePage'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/docs/{file}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * API reference page's file
     * @description One of the reference page's script or style files.
     */
    get: operations['apiReferenceAsset'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/domains': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create
     * @description 201 with the domain (pending) and the DNS records to publish.
     */
    post: operations['domainsCreate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/domains/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get */
    get: operations['domainsGet'];
    put?: never;
    post?: never;
    /** Remove */
    delete: operations['domainsRemove'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/domains/{id}/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Verify
     * @description Forces a check now: the domain with each record's status (found, missing, wrong_value, lookup_failed).
     */
    get: operations['domainsVerify'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/domains/project/{projectId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List */
    get: operations['domainsList'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/emails': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List */
    get: operations['emailsList'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/emails/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get */
    get: operations['emailsGet'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List */
    get: operations['eventsList'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/events/{eventName}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Delete by name */
    delete: operations['eventsDeleteByName'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/events/{eventName}/usage': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Usage */
    get: operations['eventsUsage'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/events/contact/{contactId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** For contact */
    get: operations['eventsForContact'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/events/names': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Names */
    get: operations['eventsNames'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/events/stats': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Stats */
    get: operations['eventsStats'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/events/track': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Track from dashboard
     * @description Dashboard alias of /v1/track.
     */
    post: operations['eventsTrackFromDashboard'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/health/live': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Live */
    get: operations['healthLive'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/health/ready': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Readiness */
    get: operations['healthReady'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/inbound': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List
     * @description The project's received messages, newest first (cursor-paginated), of one contact when `contactId` is given.
     */
    get: operations['inboundList'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/inbound/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get
     * @description One received message with its text, HTML (as received: sanitise it before showing it), headers and attachments.
     */
    get: operations['inboundGet'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/manage/{token}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Manage */
    get: operations['linksManage'];
    put?: never;
    /** Manage change */
    post: operations['linksManageChange'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * This OpenAPI document
     * @description The OpenAPI 3.1 document of this install's API.
     */
    get: operations['openApiOpenapi'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/projects/{id}/invitations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List invitations */
    get: operations['projectTeamListInvitations'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/projects/{id}/invitations/{invitationId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Revoke invitation */
    delete: operations['projectTeamRevokeInvitation'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/projects/{id}/members': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List */
    get: operations['projectTeamList'];
    put?: never;
    /**
     * Add
     * @description An existing account joins at once (201, the member); another address is invited by email (202, the invitation).
     */
    post: operations['projectTeamAdd'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/projects/{id}/members/{userId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Remove */
    delete: operations['projectTeamRemove'];
    options?: never;
    head?: never;
    /** Change role */
    patch: operations['projectTeamChangeRole'];
    trace?: never;
  };
  '/projects/{id}/security': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Project */
    get: operations['securityProject'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/projects/{id}/security/lift': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Lift */
    post: operations['securityLift'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/projects/{id}/setup-state': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Setup state
     * @description Onboarding checklist, from the project's own records and other services' events.
     */
    get: operations['projectTeamSetupState'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/segments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List */
    get: operations['segmentsList'];
    put?: never;
    /** Create */
    post: operations['segmentsCreate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/segments/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get */
    get: operations['segmentsGet'];
    put?: never;
    post?: never;
    /** Remove */
    delete: operations['segmentsRemove'];
    options?: never;
    head?: never;
    /** Update */
    patch: operations['segmentsUpdate'];
    trace?: never;
  };
  '/segments/{id}/compute': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Compute */
    post: operations['segmentsCompute'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/segments/{id}/contacts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Contacts */
    get: operations['segmentMembersContacts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/segments/{id}/members': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Add members */
    post: operations['segmentMembersAddMembers'];
    /** Remove members */
    delete: operations['segmentMembersRemoveMembers'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/segments/{id}/refresh': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Refresh */
    post: operations['segmentsRefresh'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/segments/count': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Count
     * @description How many contacts a filter matches now, unsaved: `{total}` (the dashboard's live count), and with `preview: n` its first n members as `preview`.
     */
    post: operations['segmentsCount'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/subscribe/{token}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Subscribe form */
    get: operations['linksSubscribeForm'];
    put?: never;
    /** Subscribe */
    post: operations['linksSubscribe'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/t/click/{token}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Tracked link */
    get: operations['linksClick'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/t/open/{token}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Open-tracking pixel */
    get: operations['linksOpen'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/templates': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List */
    get: operations['templatesList'];
    put?: never;
    /** Create */
    post: operations['templatesCreate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/templates/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get */
    get: operations['templatesGet'];
    put?: never;
    post?: never;
    /** Delete */
    delete: operations['templatesDelete'];
    options?: never;
    head?: never;
    /** Update */
    patch: operations['templatesUpdate'];
    trace?: never;
  };
  '/templates/{id}/duplicate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Duplicate */
    post: operations['templatesDuplicate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/templates/{id}/usage': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Usage */
    get: operations['templatesUsage'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/unsubscribe/{token}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Unsubscribe form */
    get: operations['linksUnsubscribeForm'];
    put?: never;
    /**
     * Unsubscribe (RFC 8058 one-click)
     * @description The page's button and RFC 8058 one-click both land here.
     */
    post: operations['linksUnsubscribe'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/uploads/files/{projectId}/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * An uploaded image
     * @description Serves a local-disk upload to anyone (emails embed these URLs): immutable, never sniffed.
     */
    get: operations['uploadsServe'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/uploads/image': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Upload
     * @description multipart/form-data with one file part (PNG, JPEG, GIF or WebP, at most UPLOAD_MAX_BYTES); answers 201 {url}.
     */
    post: operations['uploadsUpload'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/@me': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Me */
    get: operations['meMe'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/@me/invitations/accept': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Accept invitation
     * @description Accepts a project invitation (the token of its email) as the signed-in user, who must be its verified address.
     */
    post: operations['meAcceptInvitation'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/@me/projects': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List */
    get: operations['meList'];
    put?: never;
    /**
     * Create
     * @description The response carries the full keys, live and test; they are never shown again (only their prefixes).
     */
    post: operations['meCreate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/@me/projects/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Delete */
    delete: operations['meDelete'];
    options?: never;
    head?: never;
    /** Update */
    patch: operations['meUpdate'];
    trace?: never;
  };
  '/users/@me/projects/{id}/billing-consumption': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Consumption */
    get: operations['billingConsumption'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/@me/projects/{id}/billing-invoices': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Invoices */
    get: operations['stripeBillingInvoices'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/@me/projects/{id}/billing-limits': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Limits */
    get: operations['billingLimits'];
    /**
     * Set limits
     * @description Body `{transactional?, campaign?, workflow?}`: a whole number ≥ 0, or null for no cap; validated by parseCaps.
     */
    put: operations['billingSetLimits'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/@me/projects/{id}/billing-portal': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Portal */
    post: operations['stripeBillingPortal'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/@me/projects/{id}/checkout': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Checkout */
    post: operations['stripeBillingCheckout'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/@me/projects/{id}/regenerate-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Regenerate keys
     * @description Rotates both live keys (the test keys stay).
     */
    post: operations['meRegenerateKeys'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/@me/projects/{id}/regenerate-test-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Regenerate test keys
     * @description Rotates both test keys (the live keys stay); a project created before test mode gets its first pair.
     */
    post: operations['meRegenerateTestKeys'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/@me/projects/{id}/reset': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Reset */
    post: operations['meReset'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/@me/projects/{id}/security': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Mine */
    get: operations['securityMine'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/send': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a transactional email
     * @description The body is validated by parseSendRequest (its union-typed fields do not fit a DTO class). With a test key (`sk_test_…`) the emails are of test mode: never relayed (docs/test-mode.md).
     */
    post: operations['sendExecute'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/send/batch': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send up to 100 emails in one request
     * @description Up to 100 /v1/send bodies (a JSON array), answered per item; `X-Batch-Validation: permissive` sends the valid items when others are invalid (default `strict`: the whole batch is refused). The whole batch is at most one /v1/send body's size.
     */
    post: operations['sendExecuteBatch'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/track': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Track an event for a contact
     * @description Writes the contact and its event, this service's own: only a project reset (the gateway's) must have been applied. An `Idempotency-Key` records one event per key and body (docs/contacts.md).
     */
    post: operations['eventsTrack'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Verify */
    post: operations['verifyVerify'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/endpoints': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List */
    get: operations['endpointsList'];
    put?: never;
    /**
     * Create
     * @description 201 with the endpoint and its signing secret (`whsec_…`), shown this once.
     */
    post: operations['endpointsCreate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/endpoints/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get */
    get: operations['endpointsGet'];
    put?: never;
    post?: never;
    /**
     * Remove
     * @description Deletes the endpoint and its delivery log; nothing more is delivered to it.
     */
    delete: operations['endpointsRemove'];
    options?: never;
    head?: never;
    /** Update */
    patch: operations['endpointsUpdate'];
    trace?: never;
  };
  '/webhooks/endpoints/{id}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Log
     * @description The delivery log, newest first: each delivery's event, status, attempts, latency and the head of the last answer.
     */
    get: operations['deliveriesLog'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/endpoints/{id}/deliveries/{deliveryId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get */
    get: operations['deliveriesGet'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/endpoints/{id}/deliveries/{deliveryId}/replay': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replay one
     * @description 202: the delivery goes out again now, with its event id and body, and a fresh retry schedule.
     */
    post: operations['deliveriesReplayOne'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/endpoints/{id}/replay': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replay range
     * @description 202: every delivery of the endpoint created in [from, to) goes out again (at most 31 days).
     */
    post: operations['deliveriesReplayRange'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/endpoints/{id}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate secret
     * @description A new signing secret, shown this once; the previous one keeps signing beside it for 24 hours.
     */
    post: operations['endpointsRotateSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/endpoints/{id}/test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Test
     * @description 202: a `webhook.test` event is delivered to the endpoint (whatever it subscribes to); the delivery, pending.
     */
    post: operations['deliveriesTest'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/generic': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Receive
     * @description JSON (one notification or an array), signed with X-Herald-Signature; answers 200 {received, duplicate}.
     */
    post: operations['genericWebhookReceive'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/incoming/stripe': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Receive */
    post: operations['stripeWebhookReceive'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/ses': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Receive
     * @description SNS posts JSON as `text/plain` (parsed here from the string) — or `application/json` from a forwarding proxy.
     */
    post: operations['sesWebhookReceive'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/workflows': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List */
    get: operations['workflowsList'];
    put?: never;
    /** Create */
    post: operations['workflowsCreate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/workflows/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get */
    get: operations['workflowsGet'];
    put?: never;
    post?: never;
    /** Remove */
    delete: operations['workflowsRemove'];
    options?: never;
    head?: never;
    /** Update */
    patch: operations['workflowsUpdate'];
    trace?: never;
  };
  '/workflows/{id}/executions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Executions list */
    get: operations['executionsExecutionsList'];
    put?: never;
    /** Start */
    post: operations['executionsStart'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/workflows/{id}/executions/{executionId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Execution */
    get: operations['executionsExecution'];
    put?: never;
    post?: never;
    /** Cancel */
    delete: operations['executionsCancel'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/workflows/{id}/executions/cancel-all': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Cancel all */
    post: operations['executionsCancelAll'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/workflows/{id}/simulate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Simulate */
    post: operations['simulateSimulate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/workflows/{id}/steps': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Add step */
    post: operations['workflowsAddStep'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/workflows/{id}/steps/{stepId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Remove step */
    delete: operations['workflowsRemoveStep'];
    options?: never;
    head?: never;
    /** Update step */
    patch: operations['workflowsUpdateStep'];
    trace?: never;
  };
  '/workflows/{id}/transitions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Add transition */
    post: operations['workflowsAddTransition'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/workflows/{id}/transitions/{transitionId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Remove transition */
    delete: operations['workflowsRemoveTransition'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/workflows/fields': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Fields */
    get: operations['simulateFields'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface webhooks {
  'email.sent': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * email.sent
     * @description The `email.sent` event (its Kafka contract's payload in `data`). Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookEmailSent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'email.delivered': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * email.delivered
     * @description The `email.delivered` event (its Kafka contract's payload in `data`). Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookEmailDelivered'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'email.opened': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * email.opened
     * @description The `email.opened` event (its Kafka contract's payload in `data`). Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookEmailOpened'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'email.clicked': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * email.clicked
     * @description The `email.clicked` event (its Kafka contract's payload in `data`). Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookEmailClicked'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'email.bounced': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * email.bounced
     * @description The `email.bounced` event (its Kafka contract's payload in `data`). Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookEmailBounced'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'email.complained': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * email.complained
     * @description The `email.complained` event (its Kafka contract's payload in `data`). Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookEmailComplained'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'email.failed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * email.failed
     * @description The `email.failed` event (its Kafka contract's payload in `data`). Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookEmailFailed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'email.received': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * email.received
     * @description The `email.received` event (its Kafka contract's payload in `data`). Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookEmailReceived'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'contact.created': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * contact.created
     * @description The `contact.created` event (its Kafka contract's payload in `data`). Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookContactCreated'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'contact.updated': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * contact.updated
     * @description The `contact.updated` event (its Kafka contract's payload in `data`). Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookContactUpdated'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'contact.subscribed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * contact.subscribed
     * @description The `contact.subscribed` event (its Kafka contract's payload in `data`). Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookContactSubscribed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'contact.unsubscribed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * contact.unsubscribed
     * @description The `contact.unsubscribed` event (its Kafka contract's payload in `data`). Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookContactUnsubscribed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'contact.deleted': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * contact.deleted
     * @description The `contact.deleted` event (its Kafka contract's payload in `data`). Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookContactDeleted'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'segment.entered': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * segment.entered
     * @description The `segment.entered` event (its Kafka contract's payload in `data`). Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookSegmentEntered'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'segment.exited': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * segment.exited
     * @description The `segment.exited` event (its Kafka contract's payload in `data`). Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookSegmentExited'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'workflow.started': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * workflow.started
     * @description The `workflow.started` event (its Kafka contract's payload in `data`). Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookWorkflowStarted'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'workflow.finished': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * workflow.finished
     * @description The `workflow.finished` event (its Kafka contract's payload in `data`). Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookWorkflowFinished'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'campaign.sending': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * campaign.sending
     * @description The `campaign.sending` event (its Kafka contract's payload in `data`). Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookCampaignSending'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'campaign.sent': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * campaign.sent
     * @description The `campaign.sent` event (its Kafka contract's payload in `data`). Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookCampaignSent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'webhook.test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * webhook.test
     * @description The test event of `POST /webhooks/endpoints/{id}/test`, sent whatever the endpoint subscribes to. Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).
     */
    post: operations['webhookWebhookTest'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface components {
  schemas: {
    AcceptedInvitation: {
      projectId: string;
      /** @enum {string} */
      role: 'OWNER' | 'ADMIN' | 'MEMBER';
    };
    AcceptInvitationDto: {
      token: string;
    };
    ActivityQueryDto: {
      type?: string[];
      contactId?: string;
      campaignId?: string;
      from?: string;
      to?: string;
      limit: number;
      cursor?: string;
    };
    ActivityView: {
      id: string;
      type: string;
      occurredAt: string;
      contact: {
        id: string | null;
        email: string | null;
      } | null;
      email?: {
        id: string;
        subject: string | null;
      };
      campaign?: {
        id: string;
        name: string | null;
      };
      workflow?: {
        id: string;
        name: string | null;
      };
      data: {
        [key: string]: unknown;
      };
    };
    AddMemberDto: {
      email: string;
      /** @enum {string} */
      role?: 'OWNER' | 'ADMIN' | 'MEMBER';
    };
    AddMembersDto: {
      emails: string[];
      createMissing?: boolean;
      subscribed?: boolean;
    };
    AddMembersResult: {
      added: number;
      alreadyMembers: number;
      created: number;
      notFound: number;
    };
    BatchSendResult: {
      /** @constant */
      success: true;
      data: {
        items: (
          | {
              index: number;
              emails: (
                | {
                    contact: {
                      id: string;
                      email: string;
                    };
                    email: string;
                    /** @constant */
                    status: 'queued';
                  }
                | {
                    contact: {
                      id: string;
                      email: string;
                    };
                    email: string;
                    /** @constant */
                    status: 'skipped';
                    /** @enum {string} */
                    reason: 'unsubscribed' | 'suppressed';
                  }
              )[];
            }
          | {
              index: number;
              errors: components['schemas']['FieldProblem'][];
            }
        )[];
        timestamp: string;
      };
    };
    BillingLimitsView: {
      updatedAt: string | null;
      campaign: number | null;
      workflow: number | null;
      transactional: number | null;
    };
    BulkContactsDto: {
      contactIds: string[];
    };
    BulkJobView: {
      jobId: string;
      /** @enum {string} */
      action: 'delete' | 'subscribe' | 'unsubscribe';
      /** @enum {string} */
      status: 'failed' | 'queued' | 'completed';
      total: number;
      succeeded: number;
      unchanged: number;
      failed: number;
      errors: {
        contactId: string;
        reason: string;
      }[];
      createdAt: string;
      completedAt: string | null;
    };
    CampaignBodyDto: {
      name: string;
      description?: string;
      subject: string;
      body: string;
      from: string;
      fromName?: string;
      replyTo?: Record<string, unknown>;
      /** @enum {string} */
      audienceType: 'ALL' | 'SEGMENT' | 'FILTERED';
      segmentId?: string;
      audienceFilter?: Record<string, unknown>;
      templateId?: string;
    };
    CampaignLifecycleV1: {
      campaignId: string;
      name: string;
      subject: string;
      /** @enum {string} */
      audienceType: 'ALL' | 'SEGMENT' | 'FILTERED';
      segmentId?: string;
      at: string;
      scheduledAt?: string;
      estimatedRecipients?: number;
      recipients?: number;
      sent?: number;
      skipped?: number;
      failed?: number;
    };
    CampaignList: {
      campaigns: {
        campaignId: string;
        name: string | null;
        subject: string | null;
        state: string;
        recipients: number;
        sent: number;
        delivered: number;
        uniqueOpens: number;
        totalOpens: number;
        prefetchOpens: number;
        uniqueClicks: number;
        totalClicks: number;
        bounces: number;
        complaints: number;
        failed: number;
        unsubscribes: number;
        rates: {
          delivery: number;
          open: number;
          click: number;
          clickToOpen: number;
          bounce: number;
          complaint: number;
          unsubscribe: number;
        };
      }[];
      page: number;
      pageSize: number;
      total: number;
      totalPages: number;
    };
    CampaignList2: {
      campaigns: components['schemas']['CampaignView'][];
      page: number;
      pageSize: number;
      total: number;
      totalPages: number;
      /** @description The next page's cursor, null on the last page. */
      cursor: string | null;
    };
    CampaignStatsQueryDto: {
      /** @description One rule, so a bad id is one field error. */
      campaignId?: string;
      page: number;
      pageSize: number;
      offset: number;
    };
    CampaignView: {
      id: string;
      name: string;
      description: string | null;
      subject: string;
      body: string;
      from: string;
      fromName: string | null;
      replyTo: string | null;
      /** @enum {string} */
      type: 'ALL' | 'SEGMENT' | 'FILTERED';
      /** @enum {string} */
      audienceType: 'ALL' | 'SEGMENT' | 'FILTERED';
      segmentId: string | null;
      audienceFilter: components['schemas']['WireGroup'] | null;
      templateId: string | null;
      /** @enum {string} */
      status: 'DRAFT' | 'SCHEDULED' | 'SENDING' | 'SENT' | 'CANCELLED';
      scheduledAt: string | null;
      startedAt: string | null;
      sentAt: string | null;
      cancelledAt: string | null;
      /** @description Why the campaign stopped before its whole audience was sent: `billing_limit` or `sending_suspended`, else null. */
      stoppedReason: string | null;
      createdAt: string;
      updatedAt: string;
    };
    ChangeRoleDto: {
      /** @enum {string} */
      role: 'OWNER' | 'ADMIN' | 'MEMBER';
    };
    CheckoutDto: {
      priceId?: string;
    };
    ConsumptionLine: {
      used: number;
      /** @description Emails admitted while a cap applied (reserved before they are sent); a cap is checked against the larger of the two. */
      admitted?: number;
      /** @description null: no cap (events and stored contacts are metered, never capped). */
      cap: number | null;
      periodStart: string;
      periodEnd: string;
    };
    ConsumptionView: {
      projectId: string;
      periodStart: string;
      periodEnd: string;
      categories: {
        events: components['schemas']['ConsumptionLine'];
        contacts: components['schemas']['ConsumptionLine'];
        campaign: components['schemas']['ConsumptionLine'];
        workflow: components['schemas']['ConsumptionLine'];
        transactional: components['schemas']['ConsumptionLine'];
      };
    };
    ContactCreatedV1: {
      contactId: string;
      email: string;
      subscribed: boolean;
      data: Record<string, unknown>;
    };
    ContactDeletedV1: {
      contactId: string;
      email: string;
    };
    ContactSubscriptionChangedV1: {
      contactId: string;
      email: string;
      reason?: string;
      emailId?: string;
      campaignId?: string;
    };
    ContactUpdatedV1: {
      contactId: string;
      email: string;
      subscribed: boolean;
      data: Record<string, unknown>;
      changedKeys: string[];
    };
    ContactView: {
      id: string;
      email: string;
      subscribed: boolean;
      data: {
        [key: string]: unknown;
      };
      createdAt: string;
      updatedAt: string;
    };
    CountFilterDto: {
      filters?: Record<string, unknown>;
      condition?: Record<string, unknown>;
      preview?: number;
    };
    CreateDomainDto: {
      /** Format: hostname */
      domain: string;
    };
    CreateProjectDto: {
      name: string;
    };
    CreateSegmentDto: {
      name: string;
      description?: string;
      /** @enum {string} */
      type?: 'DYNAMIC' | 'STATIC';
      filters?: Record<string, unknown>;
      condition?: Record<string, unknown>;
      trackMembership?: boolean;
    };
    CreateStepDto: {
      /** @enum {string} */
      type: 'SEND_EMAIL' | 'DELAY' | 'WAIT_FOR_EVENT' | 'CONDITION' | 'WEBHOOK' | 'UPDATE_CONTACT' | 'EXIT';
      name: string;
      position?: Record<string, unknown>;
      config: Record<string, unknown>;
      templateId?: string;
    };
    CreateTemplateDto: {
      name: string;
      subject: string;
      body: string;
      from?: Record<string, unknown>;
      fromName?: string;
      replyTo?: Record<string, unknown>;
      /** @enum {string} */
      type?: 'marketing' | 'transactional';
      /** @enum {string} */
      format?: 'html' | 'markdown';
    };
    CreateTransitionDto: {
      fromStepId: string;
      toStepId: string;
      branch?: string;
      condition?: unknown;
      priority?: number;
    };
    CreateWebhookEndpointDto: {
      url: string;
      eventTypes: (
        | 'email.sent'
        | 'email.delivered'
        | 'email.opened'
        | 'email.clicked'
        | 'email.bounced'
        | 'email.complained'
        | 'email.failed'
        | 'email.received'
        | 'contact.created'
        | 'contact.updated'
        | 'contact.subscribed'
        | 'contact.unsubscribed'
        | 'contact.deleted'
        | 'segment.entered'
        | 'segment.exited'
        | 'workflow.started'
        | 'workflow.finished'
        | 'campaign.sending'
        | 'campaign.sent'
      )[];
      enabled?: boolean;
      description?: string;
    };
    CreateWorkflowDto: {
      name: string;
      description?: string;
      eventName?: string;
      triggerConfig?: Record<string, unknown>;
      allowReentry?: boolean;
      enabled?: unknown;
      triggerType?: unknown;
    };
    CursorQueryDto: {
      limit: number;
      cursor?: string;
    };
    DeleteStepQueryDto: {
      /** @enum {boolean} */
      splice?: false | true;
    };
    DomainRecordView: {
      /** @enum {string} */
      status?: 'found' | 'missing' | 'wrong_value' | 'lookup_failed';
      found?: string[];
      problem?: string;
      /** @constant */
      type: 'TXT';
      name: string;
      value: string;
      /** @enum {string} */
      purpose: 'ownership' | 'dkim' | 'spf' | 'dmarc';
      /** @description Part of the verification: the domain is verified iff every required record is found. */
      required: boolean;
    };
    DomainView: {
      id: string;
      projectId: string;
      domain: string;
      /** @enum {string} */
      status: 'pending' | 'verified';
      dkimSelector: string;
      records: components['schemas']['DomainRecordView'][];
      lastCheckedAt: string | null;
      verifiedAt: string | null;
      createdAt: string;
    };
    EmailEventView: {
      /** @enum {string} */
      type: 'sent' | 'delivered' | 'opened' | 'clicked' | 'bounced' | 'complained' | 'failed';
      occurredAt: string;
      bounceType?: string;
      reason?: string;
      url?: string;
      messageId?: string;
    };
    EmailLifecycleV1: {
      emailId?: string;
      contactId?: string;
      email: string;
      subject?: string;
      templateId?: string;
      /** @enum {string} */
      origin?: 'api' | 'campaign' | 'workflow';
      campaignId?: string;
      workflowId?: string;
      fromDomain?: string;
      /** @enum {string} */
      bounceType?: 'permanent' | 'transient';
      reason?: string;
      url?: string;
      messageId?: string;
      testMode?: boolean;
    };
    EmailReceivedV1: {
      inboundId: string;
      contactId?: string;
      email?: string;
      name?: string;
      to: string[];
      subject?: string;
      messageId?: string;
      inReplyToEmailId?: string;
      campaignId?: string;
      workflowId?: string;
      attachments: number;
      size: number;
    };
    EmailSummaryView: {
      id: string;
      /** @enum {string} */
      status: 'sent' | 'delivered' | 'bounced' | 'sending' | 'skipped' | 'failed' | 'queued';
      /** @enum {string} */
      reason?: 'unsubscribed' | 'suppressed';
      contactId: string;
      to: {
        email: string;
        name: string | null;
      };
      from: {
        email: string;
        name: string | null;
      };
      replyTo: string | null;
      subject: string;
      /** @enum {string} */
      type: 'marketing' | 'transactional';
      templateId: string | null;
      /** @enum {string} */
      origin: 'campaign' | 'workflow' | 'api';
      /** @description A campaign's test send (POST /campaigns/:id/test). */
      test: boolean;
      /** @description Test mode (docs/test-mode.md): a test key's or a sandbox address's email, never handed to a relay, its outcome simulated. */
      testMode: boolean;
      attempts: number;
      /** @description The last problem: the relay's answer of a bounce or failure, why it was skipped, a retry's cause. */
      error: string | null;
      createdAt: string;
      sentAt: string | null;
      openedAt: string | null;
      clickedAt: string | null;
      bouncedAt: string | null;
      complainedAt: string | null;
    };
    EmailVerification: {
      email: string;
      valid: boolean;
      isDisposable: boolean;
      isAlias: boolean;
      isTypo: boolean;
      isPlusAddressed: boolean;
      isPersonalEmail: boolean;
      domainExists: boolean;
      hasWebsite: boolean;
      hasMxRecords: boolean;
      reasons: string[];
    };
    EmailView: {
      deliveredAt: string | null;
      failedAt: string | null;
      events: components['schemas']['EmailEventView'][];
      id: string;
      /** @enum {string} */
      status: 'sent' | 'delivered' | 'bounced' | 'sending' | 'skipped' | 'failed' | 'queued';
      /** @enum {string} */
      reason?: 'unsubscribed' | 'suppressed';
      contactId: string;
      to: {
        email: string;
        name: string | null;
      };
      from: {
        email: string;
        name: string | null;
      };
      replyTo: string | null;
      subject: string;
      /** @enum {string} */
      type: 'marketing' | 'transactional';
      templateId: string | null;
      /** @enum {string} */
      origin: 'campaign' | 'workflow' | 'api';
      /** @description A campaign's test send (POST /campaigns/:id/test). */
      test: boolean;
      /** @description Test mode (docs/test-mode.md): a test key's or a sandbox address's email, never handed to a relay, its outcome simulated. */
      testMode: boolean;
      attempts: number;
      /** @description The last problem: the relay's answer of a bounce or failure, why it was skipped, a retry's cause. */
      error: string | null;
      createdAt: string;
      sentAt: string | null;
      openedAt: string | null;
      clickedAt: string | null;
      bouncedAt: string | null;
      complainedAt: string | null;
    };
    ErrorBody: {
      /** @constant */
      success: false;
      /** @description The same text as `error.message`: the official Plunk client throws `data.message`. */
      message: string;
      error: {
        code: string;
        message: string;
        statusCode: number;
        requestId: string;
        errors?: components['schemas']['FieldError'][];
        suggestion?: string;
      };
      timestamp: string;
      /** @description Public endpoints only: the HTTP status, as an integer. */
      code?: number;
      /** @description Public endpoints only: when the error was answered, in epoch milliseconds (the same instant as `timestamp`). */
      time?: number;
    };
    EventStats: {
      total: number;
      last24Hours: number;
      events: {
        name: string;
        count: number;
        lastSeenAt: string;
      }[];
    };
    ExecutionView: {
      id: string;
      workflowId: string;
      contactId: string;
      email: string;
      /** @enum {string} */
      status: 'CANCELLED' | 'RUNNING' | 'WAITING' | 'COMPLETED' | 'EXITED' | 'FAILED';
      trigger: string;
      version: number;
      context: {
        [key: string]: unknown;
      };
      event: {
        [key: string]: unknown;
      };
      currentStepId: string | null;
      reason: string | null;
      /** Format: date-time */
      startedAt: string;
      finishedAt: string | null;
      steps?: {
        id: string;
        stepId: string;
        type: string;
        status: string;
        /** Format: date-time */
        startedAt: string;
        /** @description Null: a WAIT_FOR_EVENT without a timeout, waiting for its event with no deadline. */
        dueAt: string | null;
        finishedAt: string | null;
        outcome: string | null;
        error: string | null;
        attempts: number;
        detail: {
          [key: string]: unknown;
        } | null;
      }[];
    };
    FieldDescriptor: {
      field: string;
      /** @enum {string} */
      type: 'string' | 'number' | 'boolean' | 'date';
      isCustom: boolean;
      /** @description Share of the project's contacts that have the field set, 0..1. */
      coverage: number;
    };
    FieldError: {
      field: string;
      message: string;
      code: string;
    };
    FieldProblem: {
      field: string;
      message: string;
      code: string;
    };
    GraphProblem: {
      stepId?: string;
      /** @enum {string} */
      code: 'WORKFLOW_NO_TRIGGER' | 'WORKFLOW_EMPTY' | 'STEP_UNREACHABLE' | 'STEP_BRANCH_OPEN';
      message: string;
    };
    HealthReport: {
      /** @enum {string} */
      status: 'error' | 'ok';
      checks: {
        [key: string]: {
          /** @enum {string} */
          status: 'up' | 'down';
          error?: string;
          latencyMs: number;
        };
      };
    };
    ImportRowError: {
      /** @description Row number in the file, the header being row 1. */
      row: number;
      email: string;
      /** @description invalid_email, invalid_text, data_too_large, or a verification verdict (docs/contacts.md). */
      reason: string;
      /** @description The corrected address, when verification found the domain misspelt. */
      suggestion?: string;
    };
    ImportVerificationView: {
      /** @description `?skipInvalid=true`: rows with an invalid verdict (invalid_domain, disposable) were not imported. */
      skipInvalid: boolean;
      /** @description Rows whose address was verified: every row with a valid address. */
      checked: number;
      /** @description Rows verified with nothing to report. */
      passed: number;
      /** @description Rows with each verdict (one verdict per row). */
      counts: {
        invalid_domain: number;
        disposable: number;
        typo: number;
        role_address: number;
        unverified: number;
      };
    };
    ImportView: {
      jobId: string;
      /** @enum {string} */
      status: 'failed' | 'queued' | 'completed';
      totalRows: number;
      imported: number;
      updated: number;
      skipped: number;
      errors: components['schemas']['ImportRowError'][];
      progress: {
        processedRows: number;
        percent: number;
      };
      createdAt: string;
      completedAt: string | null;
      failure?: string;
      /** @description Verifying imports only (`?verify=true`): what verification found. */
      verification?: components['schemas']['ImportVerificationView'];
      /** @description Verifying imports only: rows imported with a verdict (the first 1000). */
      warnings?: components['schemas']['ImportRowError'][];
    };
    InboundAttachment: {
      filename: string | null;
      contentType: string;
      /** @description Decoded bytes. */
      size: number;
      /** @description Content-ID without the angle brackets (an inline part of the HTML). */
      contentId: string | null;
      /** @enum {string} */
      disposition: 'attachment' | 'inline';
      /** @description Whether `content` is kept (false: it did not fit INBOUND_MAX_ATTACHMENT_BYTES). */
      stored: boolean;
      /** @description base64, when stored. */
      content?: string;
    };
    InboundHeader: {
      name: string;
      value: string;
    };
    InboundMessageView: {
      text: string | null;
      html: string | null;
      headers: components['schemas']['InboundHeader'][];
      /** @description Each attachment, with its content (base64) when it was kept (`stored`). */
      attachments: components['schemas']['InboundAttachment'][];
      id: string;
      /** @description The contact whose address sent it; null when the sender is no contact of the project. */
      contactId: string | null;
      from: {
        email: string | null;
        name: string | null;
      };
      /** @description MAIL FROM ('' for the null sender of a bounce). */
      envelopeFrom: string;
      /** @description The project's addresses it was delivered to. */
      to: string[];
      subject: string | null;
      messageId: string | null;
      /** @description The project's email it answers (In-Reply-To / References), and that email's campaign or workflow. */
      inReplyToEmailId: string | null;
      campaignId: string | null;
      workflowId: string | null;
      attachmentCount: number;
      /** @description Bytes as received. */
      size: number;
      receivedAt: string;
    };
    InboundSummaryView: {
      id: string;
      /** @description The contact whose address sent it; null when the sender is no contact of the project. */
      contactId: string | null;
      from: {
        email: string | null;
        name: string | null;
      };
      /** @description MAIL FROM ('' for the null sender of a bounce). */
      envelopeFrom: string;
      /** @description The project's addresses it was delivered to. */
      to: string[];
      subject: string | null;
      messageId: string | null;
      /** @description The project's email it answers (In-Reply-To / References), and that email's campaign or workflow. */
      inReplyToEmailId: string | null;
      campaignId: string | null;
      workflowId: string | null;
      attachmentCount: number;
      /** @description Bytes as received. */
      size: number;
      receivedAt: string;
    };
    InvitationView: {
      id: string;
      email: string;
      /** @enum {string} */
      role: 'OWNER' | 'ADMIN' | 'MEMBER';
      /** @constant */
      status: 'pending';
      invitedBy: string;
      expiresAt: string;
      createdAt: string;
    };
    InvoiceView: {
      id: string;
      number: string | null;
      status: string | null;
      currency: string;
      amountDue: number;
      amountPaid: number;
      total: number;
      createdAt: string;
      periodStart: string | null;
      periodEnd: string | null;
      hostedInvoiceUrl: string | null;
      pdfUrl: string | null;
    };
    KeyView: {
      /** @description The first characters of the key; the full key is shown only when created or rotated. */
      prefix: string;
      createdAt: string;
    };
    ListCampaignsQueryDto: {
      limit: number;
      page?: number;
      /** @description The `cursor` of the previous page (the next page's number). */
      cursor?: string;
      /** @enum {string} */
      status?: 'DRAFT' | 'SCHEDULED' | 'SENDING' | 'SENT' | 'CANCELLED';
    };
    ListContactsQueryDto: {
      /** @description Case-insensitive substring of the email. */
      search?: string;
      /** @enum {boolean} */
      subscribed?: false | true;
      limit: number;
      cursor?: string;
    };
    ListEmailsQueryDto: {
      contactId?: string;
      /** @enum {string} */
      status?: 'sent' | 'delivered' | 'bounced' | 'sending' | 'skipped' | 'failed' | 'queued';
      limit: number;
      cursor?: string;
    };
    ListExecutionsQueryDto: {
      /** @enum {string} */
      status?: 'CANCELLED' | 'RUNNING' | 'WAITING' | 'COMPLETED' | 'EXITED' | 'FAILED';
      limit?: number;
      cursor?: string;
    };
    ListInboundQueryDto: {
      contactId?: string;
      limit: number;
      cursor?: string;
    };
    ListTemplatesQueryDto: {
      /** @enum {string} */
      type?: 'marketing' | 'transactional';
      limit: number;
      cursor?: string;
    };
    LogInDto: {
      email: string;
      password: string;
    };
    LookupContactsDto: {
      emails: string[];
    };
    MembersPageQueryDto: {
      page: number;
      pageSize: number;
    };
    MemberView: {
      userId: string;
      email: string;
      name: string | null;
      /** @enum {string} */
      role: 'OWNER' | 'ADMIN' | 'MEMBER';
      joinedAt: string;
    };
    MemberView2: {
      id: string;
      email: string;
      subscribed: boolean;
      data: {
        [key: string]: unknown;
      };
      createdAt: string;
      updatedAt: string;
    };
    PageQueryDto: {
      page: number;
      pageSize: number;
      offset: number;
    };
    ProjectView: {
      id: string;
      name: string;
      disabled: boolean;
      /** @enum {string} */
      role: 'OWNER' | 'ADMIN' | 'MEMBER';
      createdAt: string;
      /**
       * @description The live keys, and the test keys (`sk_test_…`, `pk_test_…`: sends that never reach a relay,
       *     docs/test-mode.md); a test key is null for a project created before test mode until its test
       *     keys are regenerated.
       */
      keys: {
        secret: components['schemas']['KeyView'] | null;
        public: components['schemas']['KeyView'] | null;
        testSecret: components['schemas']['KeyView'] | null;
        testPublic: components['schemas']['KeyView'] | null;
      };
    };
    PublicConfig: {
      /** @enum {string} */
      mode: 'standalone' | 'distributed';
      signups: boolean;
      oauth: {
        providers: string[];
      };
      /** @description Herald can send its own account email (verification, password reset). */
      accountEmail: boolean;
      rateLimitPerMinute: number;
      /** @description Billing through a payment provider (checkout, portal, invoices); caps work either way. */
      billing: {
        enabled: boolean;
        provider: string | null;
      };
    };
    RecentCountQueryDto: {
      minutes: number;
    };
    RecipientsFilterDto: {
      /** @enum {string} */
      status?: 'sent' | 'skipped' | 'failed' | 'pending' | 'queued';
      /** @enum {string} */
      reason?:
        | 'cancelled'
        | 'unsubscribed'
        | 'suppressed'
        | 'invalid_address'
        | 'duplicate'
        | 'billing_limit'
        | 'sending_suspended';
    };
    RecipientsPage: {
      data: components['schemas']['RecipientView'][];
      cursor: string | null;
      hasMore: boolean;
      total: number;
    };
    RecipientsQueryDto: {
      limit: number;
      cursor?: string;
      /** @enum {string} */
      status?: 'sent' | 'skipped' | 'failed' | 'pending' | 'queued';
      /** @enum {string} */
      reason?:
        | 'cancelled'
        | 'unsubscribed'
        | 'suppressed'
        | 'invalid_address'
        | 'duplicate'
        | 'billing_limit'
        | 'sending_suspended';
    };
    RecipientView: {
      contactId: string;
      email: string;
      /** @enum {string} */
      status: 'sent' | 'skipped' | 'failed' | 'pending' | 'queued';
      reason:
        | null
        | 'cancelled'
        | 'unsubscribed'
        | 'suppressed'
        | 'invalid_address'
        | 'duplicate'
        | 'billing_limit'
        | 'sending_suspended';
      error: string | null;
      emailId: string | null;
      sentAt: string | null;
      deliveredAt: string | null;
      openedAt: string | null;
      clickedAt: string | null;
      bouncedAt: string | null;
      complainedAt: string | null;
      /** @description When the recipient unsubscribed through this campaign's link. */
      unsubscribedAt: string | null;
    };
    RemoveMembersDto: {
      emails: string[];
    };
    ReplayRangeDto: {
      from: string;
      to: string;
    };
    ReputationThresholds: {
      bounceWarn: number;
      bounceSuspend: number;
      complaintWarn: number;
      complaintSuspend: number;
      /** @description No warning or suspension below this many sends in a window. */
      minSends: number;
    };
    RequestPasswordResetDto: {
      email: string;
    };
    ResetPasswordDto: {
      password: string;
      token: string;
    };
    SecurityView: {
      projectId: string;
      /**
       * @description `suspended` (sends refused), `warning` (a warn threshold passed) or `active`.
       * @enum {string}
       */
      status: 'warning' | 'active' | 'suspended';
      warning: null | 'bounce_rate' | 'complaint_rate';
      rates: {
        last7Days: components['schemas']['WindowRates'];
        last1000Sends: components['schemas']['WindowRates'];
      };
      /** @description The last 7 days per sender domain (most sends first, at most 20): one bad list can burn a shared domain. */
      domains: {
        bounceRate: number;
        complaintRate: number;
        sends: number;
        bounces: number;
        complaints: number;
        domain: string;
      }[];
      thresholds: components['schemas']['ReputationThresholds'];
      suspension: components['schemas']['SuspensionView'] | null;
      recentSuspensions: components['schemas']['SuspensionView'][];
    };
    SegmentMembershipChangedV1: {
      segmentId: string;
      segmentName: string;
      contactId: string;
      email: string;
      at: string;
      /** @enum {string} */
      reason: 'compute' | 'change' | 'sweep';
    };
    SegmentView: {
      id: string;
      name: string;
      description: string | null;
      /** @enum {string} */
      type: 'DYNAMIC' | 'STATIC';
      filters: components['schemas']['WireGroup'] | null;
      condition: components['schemas']['WireGroup'] | null;
      trackMembership: boolean;
      memberCount: number;
      createdAt: string;
      updatedAt: string;
    };
    SendCampaignDto: {
      scheduledFor?: unknown;
    };
    SendResult: {
      /** @constant */
      success: true;
      data: {
        emails: (
          | {
              contact: {
                id: string;
                email: string;
              };
              email: string;
              /** @constant */
              status: 'queued';
            }
          | {
              contact: {
                id: string;
                email: string;
              };
              email: string;
              /** @constant */
              status: 'skipped';
              /** @enum {string} */
              reason: 'unsubscribed' | 'suppressed';
            }
        )[];
        timestamp: string;
      };
    };
    Series: {
      from: string;
      to: string;
      /** @enum {string} */
      interval: 'hour' | 'day';
      tz: string;
      buckets: ({
        start: string;
      } & {
        [key: string]: string | number;
      })[];
    };
    SignUpDto: {
      email: string;
      password: string;
      name?: string;
      invitationToken?: string;
    };
    SimStep: {
      stepId: string;
      type: string;
      name: string;
      at: string;
      outcome: string;
      why?: {
        [key: string]: unknown;
      };
    };
    SimulateDto: {
      contactId?: string;
      contact?: Record<string, unknown>;
      event?: Record<string, unknown>;
      at?: string;
      context?: Record<string, unknown>;
    };
    StartExecutionDto: {
      contactId: string;
      context?: Record<string, unknown>;
    };
    StartImportQueryDto: {
      /**
       * @description Run the checks of POST /v1/verify on every row's address and report a verdict per row.
       * @enum {boolean}
       */
      verify?: false | true;
      /**
       * @description With verify=true: rows with the verdict invalid_domain or disposable are not imported.
       * @enum {boolean}
       */
      skipInvalid?: false | true;
    };
    StatsQueryDto: {
      type?: string[];
      from?: string;
      to?: string;
      /** @enum {string} */
      interval: 'hour' | 'day';
      /** @description IANA time zone of the buckets (checked by the route: class-validator's list is not the runtime's). */
      tz: string;
    };
    StepCoordinates: {
      x: number;
      y: number;
    };
    StepView: {
      id: string;
      workflowId: string;
      type: string;
      name: string;
      /** @description As it was written: the order (an integer), or the canvas coordinates `{x, y}`. */
      position:
        | number
        | {
            x: number;
            y: number;
          };
      config: {
        [key: string]: unknown;
      };
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    SuspensionView: {
      id: string;
      reason: string;
      bounceRate: number;
      complaintRate: number;
      sends: number;
      suspendedAt: string;
      liftedAt: string | null;
      liftedBy: string | null;
    };
    TemplateUsage: {
      campaigns: {
        id: string;
        name: string;
      }[];
      workflows: {
        id: string;
        name: string;
        stepId?: string;
      }[];
    };
    TemplateView: {
      id: string;
      name: string;
      subject: string;
      body: string;
      from: string | null;
      fromName: string | null;
      replyTo: string | null;
      /** @enum {string} */
      type: 'marketing' | 'transactional';
      /** @enum {string} */
      format: 'html' | 'markdown';
      createdAt: string;
      updatedAt: string;
    };
    TestSendAnswer: {
      /** @constant */
      success: true;
      email: string;
      /** @constant */
      status: 'queued';
      emailId: string;
    };
    TestSendDto: {
      email: string;
    };
    TimeseriesQueryDto: {
      metrics: ('sent' | 'delivered' | 'opened' | 'clicked' | 'bounced' | 'complained')[];
      from?: string;
      to?: string;
      /** @enum {string} */
      interval: 'hour' | 'day';
      /** @description IANA time zone of the buckets (checked by the route: class-validator's list is not the runtime's). */
      tz: string;
    };
    TimeWindow: {
      amount: number;
      /** @enum {string} */
      unit: 'weeks' | 'days' | 'hours' | 'minutes' | 'months';
    };
    TokenDto: {
      token: string;
    };
    TopCampaignsQueryDto: {
      /** @enum {string} */
      metric: 'opens' | 'clicks' | 'openRate' | 'clickRate';
      limit: number;
    };
    TopEvents: {
      events: {
        name: string;
        count: number;
        lastSeenAt?: string;
      }[];
    };
    TopEventsQueryDto: {
      limit: number;
      from?: string;
      to?: string;
    };
    TrackedEventView: {
      id: string;
      name: string;
      contactId: string;
      data: {
        [key: string]: unknown;
      };
      /** @description Recorded by Herald (email.*, contact.subscribed, contact.unsubscribed), not through /v1/track. */
      system: boolean;
      createdAt: string;
    };
    TrackEventDto: {
      email: string;
      event: string;
      data?: Record<string, unknown>;
      subscribed?: boolean;
    };
    TrackEventResult: {
      contact: string;
      event: string;
      timestamp: string;
    };
    TransitionView: {
      id: string;
      workflowId: string;
      fromStepId: string;
      toStepId: string;
      branch: string | null;
    };
    UpcomingQueryDto: {
      limit: number;
    };
    UpdateContactDto: {
      email?: string;
      subscribed?: boolean;
      data?: Record<string, unknown>;
    };
    UpdateProjectDto: {
      name?: string;
      disabled?: boolean;
    };
    UpdateSegmentDto: {
      name?: string;
      description?: string;
      filters?: Record<string, unknown>;
      condition?: Record<string, unknown>;
      trackMembership?: boolean;
    };
    UpdateStepDto: {
      name?: string;
      position?: Record<string, unknown>;
      config?: Record<string, unknown>;
      templateId?: string;
    };
    UpdateTemplateDto: {
      name?: string;
      subject?: string;
      body?: string;
      from?: string | null;
      fromName?: string | null;
      replyTo?: string | null;
      /** @enum {string} */
      type?: 'marketing' | 'transactional';
      /**
       * @description How `body` is written (default `html`); `markdown` is converted to HTML when an email is rendered.
       * @enum {string}
       */
      format?: 'html' | 'markdown';
    };
    UpdateWebhookEndpointDto: {
      url?: string;
      eventTypes?: (
        | 'email.sent'
        | 'email.delivered'
        | 'email.opened'
        | 'email.clicked'
        | 'email.bounced'
        | 'email.complained'
        | 'email.failed'
        | 'email.received'
        | 'contact.created'
        | 'contact.updated'
        | 'contact.subscribed'
        | 'contact.unsubscribed'
        | 'contact.deleted'
        | 'segment.entered'
        | 'segment.exited'
        | 'workflow.started'
        | 'workflow.finished'
        | 'campaign.sending'
        | 'campaign.sent'
      )[];
      enabled?: boolean;
      description?: string;
    };
    UpdateWorkflowDto: {
      name?: string;
      description?: string;
      /** @enum {string} */
      triggerType?: 'EVENT';
      triggerConfig?: Record<string, unknown>;
      eventName?: string;
      enabled?: boolean;
      allowReentry?: boolean;
    };
    UpsertContactDto: {
      email: string;
      /** @enum {boolean} */
      subscribed?: false | true;
      data?: {
        [key: string]: unknown;
      };
    };
    UpsertedContact: {
      id: string;
      email: string;
      subscribed: boolean;
      data: {
        [key: string]: unknown;
      };
      createdAt: string;
      updatedAt: string;
      _meta: {
        isNew: boolean;
        isUpdate: boolean;
      };
    };
    Usage: {
      segments: components['schemas']['UsageRef'][];
      campaigns: components['schemas']['UsageRef'][];
      workflows: components['schemas']['UsageRef'][];
    };
    UsageRef: {
      id: string;
      name: string;
      /** @description Where in the resource (a workflow step id), when the reference said. */
      at?: string;
    };
    User: {
      id: string;
      email: string;
      name: string | null;
      passwordHash: string;
      /** @description Bumped on logout and password reset: sessions issued before stop working. */
      sessionVersion: number;
      emailVerifiedAt: string | null;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
    };
    UserView: {
      id: string;
      email: string;
      name: string | null;
      emailVerified: boolean;
      createdAt: string;
    };
    VerifyEmailDto: {
      email: string;
    };
    WebhookCampaignSending: {
      /** @constant */
      type: 'campaign.sending';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: components['schemas']['CampaignLifecycleV1'];
    };
    WebhookCampaignSent: {
      /** @constant */
      type: 'campaign.sent';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: components['schemas']['CampaignLifecycleV1'];
    };
    WebhookContactCreated: {
      /** @constant */
      type: 'contact.created';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: components['schemas']['ContactCreatedV1'];
    };
    WebhookContactDeleted: {
      /** @constant */
      type: 'contact.deleted';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: components['schemas']['ContactDeletedV1'];
    };
    WebhookContactSubscribed: {
      /** @constant */
      type: 'contact.subscribed';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: components['schemas']['ContactSubscriptionChangedV1'];
    };
    WebhookContactUnsubscribed: {
      /** @constant */
      type: 'contact.unsubscribed';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: components['schemas']['ContactSubscriptionChangedV1'];
    };
    WebhookContactUpdated: {
      /** @constant */
      type: 'contact.updated';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: components['schemas']['ContactUpdatedV1'];
    };
    WebhookDeliveryView: {
      id: string;
      endpointId: string;
      /** @description The event's id: the `webhook-id` header and the body's `id`. */
      eventId: string;
      eventType: string;
      /**
       * @description `pending` (due, or waiting for a retry), `delivered` (a 2xx answer) or `dead` (every retry failed).
       * @enum {string}
       */
      status: 'delivered' | 'pending' | 'dead';
      /** @description Attempts since it was created or last replayed. */
      attempts: number;
      nextAttemptAt: string | null;
      lastAttemptAt: string | null;
      /** @description The last answer's HTTP status; null when none came. */
      responseStatus: number | null;
      /** @description The first 1,024 bytes of the last answer's body. */
      responseBody: string | null;
      /** @description How long the last attempt took, in milliseconds. */
      latencyMs: number | null;
      /** @description Why the last attempt failed (`HTTP 500`, a timeout, a refused address). */
      error: string | null;
      deliveredAt: string | null;
      createdAt: string;
    };
    WebhookEmailBounced: {
      /** @constant */
      type: 'email.bounced';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: components['schemas']['EmailLifecycleV1'];
    };
    WebhookEmailClicked: {
      /** @constant */
      type: 'email.clicked';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: components['schemas']['EmailLifecycleV1'];
    };
    WebhookEmailComplained: {
      /** @constant */
      type: 'email.complained';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: components['schemas']['EmailLifecycleV1'];
    };
    WebhookEmailDelivered: {
      /** @constant */
      type: 'email.delivered';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: components['schemas']['EmailLifecycleV1'];
    };
    WebhookEmailFailed: {
      /** @constant */
      type: 'email.failed';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: components['schemas']['EmailLifecycleV1'];
    };
    WebhookEmailOpened: {
      /** @constant */
      type: 'email.opened';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: components['schemas']['EmailLifecycleV1'];
    };
    WebhookEmailReceived: {
      /** @constant */
      type: 'email.received';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: components['schemas']['EmailReceivedV1'];
    };
    WebhookEmailSent: {
      /** @constant */
      type: 'email.sent';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: components['schemas']['EmailLifecycleV1'];
    };
    WebhookEndpointView: {
      id: string;
      url: string;
      description: string | null;
      eventTypes: string[];
      enabled: boolean;
      /**
       * @description `failing` from the moment one of its deliveries is dead (its retries spent) until one succeeds.
       * @enum {string}
       */
      status: 'active' | 'failing';
      failingSince: string | null;
      createdAt: string;
      updatedAt: string;
    };
    WebhookEndpointWithSecret: {
      secret: string;
      id: string;
      url: string;
      description: string | null;
      eventTypes: string[];
      enabled: boolean;
      /**
       * @description `failing` from the moment one of its deliveries is dead (its retries spent) until one succeeds.
       * @enum {string}
       */
      status: 'active' | 'failing';
      failingSince: string | null;
      createdAt: string;
      updatedAt: string;
    };
    WebhookReceipt: {
      /** @constant */
      received: true;
      duplicate: boolean;
      /** @description Present when the message was valid but carried nothing to record (subscription messages, other SES events). */
      ignored?: string;
      /**
       * @description SubscriptionConfirmation: the subscription was confirmed.
       * @enum {boolean}
       */
      confirmed?: false | true;
    };
    WebhookReceipt2: {
      /** @constant */
      received: true;
      /** @description The event id was applied before: nothing changed. */
      duplicate: boolean;
    };
    WebhookSegmentEntered: {
      /** @constant */
      type: 'segment.entered';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: components['schemas']['SegmentMembershipChangedV1'];
    };
    WebhookSegmentExited: {
      /** @constant */
      type: 'segment.exited';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: components['schemas']['SegmentMembershipChangedV1'];
    };
    WebhookWebhookTest: {
      /** @constant */
      type: 'webhook.test';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: {
        endpointId?: string;
        message?: string;
      };
    };
    WebhookWorkflowFinished: {
      /** @constant */
      type: 'workflow.finished';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: components['schemas']['WorkflowExecutionV1'];
    };
    WebhookWorkflowStarted: {
      /** @constant */
      type: 'workflow.started';
      /**
       * @description The version of `data`'s contract.
       * @constant
       */
      version: 1;
      /**
       * Format: uuid
       * @description The event's id (`webhook-id`).
       */
      id: string;
      /**
       * Format: date-time
       * @description When the event happened.
       */
      timestamp: string;
      projectId: string;
      data: components['schemas']['WorkflowExecutionV1'];
    };
    WindowRates: {
      bounceRate: number;
      complaintRate: number;
      sends: number;
      bounces: number;
      complaints: number;
    };
    WireCondition: {
      field: string;
      operator: string;
      value?: string | number | false | true | (string | number | false | true)[];
      /** @enum {string} */
      unit?: 'weeks' | 'days' | 'hours' | 'minutes' | 'months';
      within?: components['schemas']['TimeWindow'];
    };
    WireGroup: {
      /** @enum {string} */
      operator: 'AND' | 'OR';
      conditions: (components['schemas']['WireGroup'] | components['schemas']['WireCondition'])[];
    };
    WorkflowExecutionV1: {
      workflowId: string;
      workflowName: string;
      executionId: string;
      contactId: string;
      email?: string;
      /** @enum {string} */
      status: 'RUNNING' | 'WAITING' | 'COMPLETED' | 'EXITED' | 'FAILED' | 'CANCELLED';
      at: string;
      trigger?: string;
      stepId?: string;
      /** @enum {string} */
      stepType?: 'SEND_EMAIL' | 'DELAY' | 'WAIT_FOR_EVENT' | 'CONDITION' | 'WEBHOOK' | 'UPDATE_CONTACT' | 'EXIT';
      stepName?: string;
      outcome?: string;
      dueAt?: string;
      reason?: string;
      data?: Record<string, unknown>;
    };
    WorkflowView: {
      id: string;
      name: string;
      description: string | null;
      /** @constant */
      triggerType: 'EVENT';
      triggerConfig: {
        [key: string]: unknown;
      };
      enabled: boolean;
      allowReentry: boolean;
      version: number;
      /** Format: date-time */
      createdAt: string;
      /** Format: date-time */
      updatedAt: string;
      steps?: components['schemas']['StepView'][];
      transitions?: components['schemas']['TransitionView'][];
      /** @description What a dashboard should warn about (graph.ts `graphProblems`); with the steps and transitions. */
      problems?: components['schemas']['GraphProblem'][];
    };
  };
  responses: {
    /** @description The body is not valid JSON, or the request cannot be read */
    BadRequest: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "success": false,
         *       "message": "The body is not valid JSON, or the request cannot be read",
         *       "error": {
         *         "code": "MALFORMED_JSON",
         *         "message": "The body is not valid JSON, or the request cannot be read",
         *         "statusCode": 400,
         *         "requestId": "req-8f1c2d"
         *       },
         *       "timestamp": "2025-01-01T12:00:00.000Z"
         *     }
         */
        'application/json': components['schemas']['ErrorBody'];
      };
    };
    /** @description The request is invalid: `error.errors` names each field and its problem */
    ValidationError: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "success": false,
         *       "message": "The request is invalid: `error.errors` names each field and its problem",
         *       "error": {
         *         "code": "VALIDATION_ERROR",
         *         "message": "The request is invalid: `error.errors` names each field and its problem",
         *         "statusCode": 422,
         *         "requestId": "req-8f1c2d"
         *       },
         *       "timestamp": "2025-01-01T12:00:00.000Z"
         *     }
         */
        'application/json': components['schemas']['ErrorBody'];
      };
    };
    /** @description No valid API key or session */
    Unauthorized: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "success": false,
         *       "message": "No valid API key or session",
         *       "error": {
         *         "code": "UNAUTHORIZED",
         *         "message": "No valid API key or session",
         *         "statusCode": 401,
         *         "requestId": "req-8f1c2d"
         *       },
         *       "timestamp": "2025-01-01T12:00:00.000Z"
         *     }
         */
        'application/json': components['schemas']['ErrorBody'];
      };
    };
    /** @description The key or session may not do this */
    Forbidden: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "success": false,
         *       "message": "The key or session may not do this",
         *       "error": {
         *         "code": "FORBIDDEN",
         *         "message": "The key or session may not do this",
         *         "statusCode": 403,
         *         "requestId": "req-8f1c2d"
         *       },
         *       "timestamp": "2025-01-01T12:00:00.000Z"
         *     }
         */
        'application/json': components['schemas']['ErrorBody'];
      };
    };
    /** @description No such resource in this project */
    NotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "success": false,
         *       "message": "No such resource in this project",
         *       "error": {
         *         "code": "RESOURCE_NOT_FOUND",
         *         "message": "No such resource in this project",
         *         "statusCode": 404,
         *         "requestId": "req-8f1c2d"
         *       },
         *       "timestamp": "2025-01-01T12:00:00.000Z"
         *     }
         */
        'application/json': components['schemas']['ErrorBody'];
      };
    };
    /** @description The request body is too large */
    PayloadTooLarge: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "success": false,
         *       "message": "The request body is too large",
         *       "error": {
         *         "code": "PAYLOAD_TOO_LARGE",
         *         "message": "The request body is too large",
         *         "statusCode": 413,
         *         "requestId": "req-8f1c2d"
         *       },
         *       "timestamp": "2025-01-01T12:00:00.000Z"
         *     }
         */
        'application/json': components['schemas']['ErrorBody'];
      };
    };
    /** @description The project's rate limit is exceeded */
    RateLimited: {
      headers: {
        /** @description Seconds to wait before retrying */
        'Retry-After'?: number;
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "success": false,
         *       "message": "The project's rate limit is exceeded",
         *       "error": {
         *         "code": "RATE_LIMIT_EXCEEDED",
         *         "message": "The project's rate limit is exceeded",
         *         "statusCode": 429,
         *         "requestId": "req-8f1c2d"
         *       },
         *       "timestamp": "2025-01-01T12:00:00.000Z"
         *     }
         */
        'application/json': components['schemas']['ErrorBody'];
      };
    };
    /** @description A service or a copy it reads is not available yet: retry */
    ServiceUnavailable: {
      headers: {
        /** @description Seconds to wait before retrying */
        'Retry-After'?: number;
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "success": false,
         *       "message": "A service or a copy it reads is not available yet: retry",
         *       "error": {
         *         "code": "SERVICE_UNAVAILABLE",
         *         "message": "A service or a copy it reads is not available yet: retry",
         *         "statusCode": 503,
         *         "requestId": "req-8f1c2d"
         *       },
         *       "timestamp": "2025-01-01T12:00:00.000Z"
         *     }
         */
        'application/json': components['schemas']['ErrorBody'];
      };
    };
    /** @description Any other error, in the same body (its `error.code` is listed in docs/errors.md) */
    Error: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "success": false,
         *       "message": "Any other error, in the same body (its `error.code` is listed in docs/errors.md)",
         *       "error": {
         *         "code": "INTERNAL_SERVER_ERROR",
         *         "message": "Any other error, in the same body (its `error.code` is listed in docs/errors.md)",
         *         "statusCode": 500,
         *         "requestId": "req-8f1c2d"
         *       },
         *       "timestamp": "2025-01-01T12:00:00.000Z"
         *     }
         */
        'application/json': components['schemas']['ErrorBody'];
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
  activityList: {
    parameters: {
      query?: {
        type?: (
          | 'email.sent'
          | 'email.delivered'
          | 'email.opened'
          | 'email.clicked'
          | 'email.bounced'
          | 'email.complained'
          | 'email.failed'
          | 'email.received'
          | 'contact.created'
          | 'contact.deleted'
          | 'contact.subscribed'
          | 'contact.unsubscribed'
          | 'event.tracked'
          | 'segment.entered'
          | 'segment.exited'
          | 'workflow.started'
          | 'workflow.step.completed'
          | 'workflow.finished'
        )[];
        contactId?: string;
        campaignId?: string;
        from?: string;
        to?: string;
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['ActivityView'][];
            cursor: string | null;
            hasMore: boolean;
            total: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  activityRecentCount: {
    parameters: {
      query?: {
        minutes?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            minutes: number;
            since: string;
            count: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  activityStats: {
    parameters: {
      query?: {
        type?: (
          | 'email.sent'
          | 'email.delivered'
          | 'email.opened'
          | 'email.clicked'
          | 'email.bounced'
          | 'email.complained'
          | 'email.failed'
          | 'email.received'
          | 'contact.created'
          | 'contact.deleted'
          | 'contact.subscribed'
          | 'contact.unsubscribed'
          | 'event.tracked'
          | 'segment.entered'
          | 'segment.exited'
          | 'workflow.started'
          | 'workflow.step.completed'
          | 'workflow.finished'
        )[];
        from?: string;
        to?: string;
        interval?: 'hour' | 'day';
        tz?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            from: string;
            to: string;
            /** @enum {string} */
            interval: 'hour' | 'day';
            tz: string;
            buckets: ({
              start: string;
            } & {
              [key: string]: string | number;
            })[];
            totals: {
              [key: string]: number;
            };
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  activityTypes: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            types: {
              type: string;
              count: number;
              lastSeenAt: string;
            }[];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  activityUpcoming: {
    parameters: {
      query?: {
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            campaigns: {
              campaign: {
                id: string;
                name: string | null;
                subject: string | null;
              };
              scheduledAt: string | null;
              estimatedRecipients: number | null;
            }[];
            executions: {
              executionId: string;
              workflow: {
                id: string;
                name: string;
              };
              contact: {
                id: string;
                email: string | null;
              };
              nextStep: {
                id: string | null;
                type: string | null;
                name: string | null;
              };
              dueAt: string | null;
            }[];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  analyticsCampaignStats: {
    parameters: {
      query?: {
        campaignId?: string;
        page?: number;
        pageSize?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | components['schemas']['CampaignList']
            | {
                campaignId: string;
                name: string | null;
                subject: string | null;
                state: string;
                recipients: number;
                sent: number;
                delivered: number;
                uniqueOpens: number;
                totalOpens: number;
                prefetchOpens: number;
                uniqueClicks: number;
                totalClicks: number;
                bounces: number;
                complaints: number;
                failed: number;
                unsubscribes: number;
                rates: {
                  delivery: number;
                  open: number;
                  click: number;
                  clickToOpen: number;
                  bounce: number;
                  complaint: number;
                  unsubscribe: number;
                };
              };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  analyticsTimeseries: {
    parameters: {
      query?: {
        metrics?: ('sent' | 'delivered' | 'opened' | 'clicked' | 'bounced' | 'complained')[];
        from?: string;
        to?: string;
        interval?: 'hour' | 'day';
        tz?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Series'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  analyticsTopCampaigns: {
    parameters: {
      query?: {
        metric?: 'opens' | 'clicks' | 'openRate' | 'clickRate';
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            campaigns: {
              campaignId: string;
              name: string | null;
              subject: string | null;
              state: string;
              recipients: number;
              sent: number;
              delivered: number;
              uniqueOpens: number;
              totalOpens: number;
              prefetchOpens: number;
              uniqueClicks: number;
              totalClicks: number;
              bounces: number;
              complaints: number;
              failed: number;
              unsubscribes: number;
              rates: {
                delivery: number;
                open: number;
                click: number;
                clickToOpen: number;
                bounce: number;
                complaint: number;
                unsubscribe: number;
              };
            }[];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  topEventsTopEvents: {
    parameters: {
      query?: {
        limit?: number;
        from?: string;
        to?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TopEvents'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  authLogIn: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['LogInDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UserView'];
        };
      };
      400: components['responses']['BadRequest'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  authLogOut: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
          };
        };
      };
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  authOauthConfig: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            providers: {
              id: string;
              clientId: string;
            }[];
          };
        };
      };
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  oAuthStart: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        provider: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description To the provider's consent page with a fresh `state`, also set in the short-lived `herald_oauth_state` cookie; a provider not configured: to `/app/login?oauth_error=provider` */
      302: {
        headers: {
          /** @description Where the browser goes next */
          Location?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      404: components['responses']['NotFound'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  oAuthCallback: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        provider: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Signed in (the session cookie set as by POST /auth/login): to `/app/projects`. Refused: to `/app/login?oauth_error=` `state` (not this browser's login), `denied` (consent refused), `unverified` (the provider has not verified the address), `no_email`, `signups_disabled` or `provider` (the provider failed or is not configured) */
      302: {
        headers: {
          /** @description Where the browser goes next */
          Location?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      404: components['responses']['NotFound'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  authRequestPasswordReset: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RequestPasswordResetDto'];
      };
    };
    responses: {
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
          };
        };
      };
      400: components['responses']['BadRequest'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  authRequestVerification: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  authResetPassword: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ResetPasswordDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
          };
        };
      };
      400: components['responses']['BadRequest'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  authSignUp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SignUpDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UserView'];
        };
      };
      400: components['responses']['BadRequest'];
      /** @description The request conflicts with the current state: `EMAIL_ALREADY_REGISTERED` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `EMAIL_ALREADY_REGISTERED` (docs/errors.md)",
           *       "error": {
           *         "code": "EMAIL_ALREADY_REGISTERED",
           *         "message": "The request conflicts with the current state: `EMAIL_ALREADY_REGISTERED` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  authVerifyEmail: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TokenDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UserView'];
        };
      };
      400: components['responses']['BadRequest'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  campaignsList: {
    parameters: {
      query?: {
        limit?: number;
        page?: number;
        cursor?: string;
        status?: 'DRAFT' | 'SCHEDULED' | 'SENDING' | 'SENT' | 'CANCELLED';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CampaignList2'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  campaignsCreate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CampaignBodyDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
            data: components['schemas']['CampaignView'];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  campaignsGet: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CampaignView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  campaignsReplace: {
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
        'application/json': components['schemas']['CampaignBodyDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CampaignView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      /** @description The request conflicts with the current state: `CAMPAIGN_INVALID_STATE` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `CAMPAIGN_INVALID_STATE` (docs/errors.md)",
           *       "error": {
           *         "code": "CAMPAIGN_INVALID_STATE",
           *         "message": "The request conflicts with the current state: `CAMPAIGN_INVALID_STATE` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  campaignsRemove: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      /** @description The request conflicts with the current state: `CAMPAIGN_ACTIVE` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `CAMPAIGN_ACTIVE` (docs/errors.md)",
           *       "error": {
           *         "code": "CAMPAIGN_ACTIVE",
           *         "message": "The request conflicts with the current state: `CAMPAIGN_ACTIVE` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  deliveryCancel: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CampaignView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      /** @description The request conflicts with the current state: `CAMPAIGN_INVALID_STATE` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `CAMPAIGN_INVALID_STATE` (docs/errors.md)",
           *       "error": {
           *         "code": "CAMPAIGN_INVALID_STATE",
           *         "message": "The request conflicts with the current state: `CAMPAIGN_INVALID_STATE` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  campaignsDuplicate: {
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
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CampaignView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  recipientsRecipientsPage: {
    parameters: {
      query?: {
        limit?: number;
        cursor?: string;
        status?: 'pending' | 'queued' | 'sent' | 'failed' | 'skipped';
        reason?:
          | 'unsubscribed'
          | 'suppressed'
          | 'invalid_address'
          | 'duplicate'
          | 'cancelled'
          | 'billing_limit'
          | 'sending_suspended';
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RecipientsPage'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  recipientsRecipientsCsv: {
    parameters: {
      query?: {
        status?: 'pending' | 'queued' | 'sent' | 'failed' | 'skipped';
        reason?:
          | 'unsubscribed'
          | 'suppressed'
          | 'invalid_address'
          | 'duplicate'
          | 'cancelled'
          | 'billing_limit'
          | 'sending_suspended';
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/csv': string;
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  deliverySend: {
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
        'application/json': components['schemas']['SendCampaignDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CampaignView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      /** @description The request conflicts with the current state: `CAMPAIGN_INVALID_STATE` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `CAMPAIGN_INVALID_STATE` (docs/errors.md)",
           *       "error": {
           *         "code": "CAMPAIGN_INVALID_STATE",
           *         "message": "The request conflicts with the current state: `CAMPAIGN_INVALID_STATE` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  recipientsStats: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description The campaign's unsubscribed recipients: skipped as unsubscribed, plus those who unsubscribed
             *     through its link ({@link LedgerCounts.unsubscribedByLink}).
             */
            unsubscribed: number;
            /** @description The skip reason alone (`reason = unsubscribed`): with the other reasons it adds up to `skipped`. */
            skippedUnsubscribed: number;
            /** @description Over sent (0 when nothing was sent), rounded to 4 decimals; `unsubscribed` counts the link's only. */
            rates: {
              delivered: number;
              opened: number;
              clicked: number;
              bounced: number;
              complained: number;
              unsubscribed: number;
            };
            /** @description recipients = sent + skipped + failed (+ pending + queued while sending). */
            complete: boolean;
            recipients: number;
            pending: number;
            queued: number;
            sent: number;
            failed: number;
            skipped: number;
            suppressed: number;
            duplicate: number;
            invalidAddress: number;
            cancelled: number;
            /** @description Left unsent because the project reached its campaign cap (docs/billing.md). */
            billingLimit: number;
            /** @description Left unsent because the project's sending was suspended (sender reputation, docs/billing.md). */
            sendingSuspended: number;
            delivered: number;
            opened: number;
            clicked: number;
            bounced: number;
            complained: number;
            /** @description Sent, then unsubscribed through the campaign's link (`unsubscribed_at`). */
            unsubscribedByLink: number;
            campaignId: string;
            status: string;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  deliveryTest: {
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
        'application/json': components['schemas']['TestSendDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TestSendAnswer'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  configConfig: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PublicConfig'];
        };
      };
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  contactsList: {
    parameters: {
      query?: {
        search?: string;
        subscribed?: boolean;
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['ContactView'][];
            cursor: string | null;
            hasMore: boolean;
            total: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  contactsUpsert: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpsertContactDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UpsertedContact'];
        };
      };
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UpsertedContact'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description The request conflicts with the current state: `CONTACT_EMAIL_TAKEN` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `CONTACT_EMAIL_TAKEN` (docs/errors.md)",
           *       "error": {
           *         "code": "CONTACT_EMAIL_TAKEN",
           *         "message": "The request conflicts with the current state: `CONTACT_EMAIL_TAKEN` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  contactsGet: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ContactView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  contactsDelete: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  contactsUpdate: {
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
        'application/json': components['schemas']['UpdateContactDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ContactView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      /** @description The request conflicts with the current state: `CONTACT_EMAIL_TAKEN` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `CONTACT_EMAIL_TAKEN` (docs/errors.md)",
           *       "error": {
           *         "code": "CONTACT_EMAIL_TAKEN",
           *         "message": "The request conflicts with the current state: `CONTACT_EMAIL_TAKEN` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  bulkDelete: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['BulkContactsDto'];
      };
    };
    responses: {
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            jobId: string;
            /** @constant */
            status: 'queued';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  bulkSubscribe: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['BulkContactsDto'];
      };
    };
    responses: {
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            jobId: string;
            /** @constant */
            status: 'queued';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  bulkUnsubscribe: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['BulkContactsDto'];
      };
    };
    responses: {
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            jobId: string;
            /** @constant */
            status: 'queued';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  bulkGet: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        jobId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BulkJobView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  fieldsList: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            fields: components['schemas']['FieldDescriptor'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  fieldsDelete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        field: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            jobId: string;
            /** @constant */
            status: 'queued';
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  fieldsUsage: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        field: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Usage'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  fieldsValues: {
    parameters: {
      query?: {
        page?: number;
        pageSize?: number;
      };
      header?: never;
      path: {
        field: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: {
              value: string;
              count: number;
            }[];
            total: number;
            page: number;
            pageSize: number;
            totalPages: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  contactImportsStart: {
    parameters: {
      query?: {
        verify?: boolean;
        skipInvalid?: boolean;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': {
          file: string;
        };
      };
    };
    responses: {
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            jobId: string;
            /** @constant */
            status: 'queued';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  contactImportsGet: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        jobId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ImportView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  contactsLookup: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['LookupContactsDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            found: {
              id: string;
              email: string;
              subscribed: boolean;
            }[];
            notFound: string[];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  apiReferencePage: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Swagger UI rendering `GET /openapi.json`; nothing is loaded from another origin */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  apiReferenceAsset: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        file: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A script (`text/javascript`) or the stylesheet (`text/css`) of the page */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/javascript': string;
          'text/css': string;
        };
      };
      404: components['responses']['NotFound'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  domainsCreate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateDomainDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DomainView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description The request conflicts with the current state: `DOMAIN_ALREADY_EXISTS` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `DOMAIN_ALREADY_EXISTS` (docs/errors.md)",
           *       "error": {
           *         "code": "DOMAIN_ALREADY_EXISTS",
           *         "message": "The request conflicts with the current state: `DOMAIN_ALREADY_EXISTS` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  domainsGet: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DomainView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  domainsRemove: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  domainsVerify: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DomainView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  domainsList: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        projectId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            domains: components['schemas']['DomainView'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  emailsList: {
    parameters: {
      query?: {
        contactId?: string;
        status?: 'queued' | 'sending' | 'sent' | 'delivered' | 'bounced' | 'failed' | 'skipped';
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['EmailSummaryView'][];
            cursor: string | null;
            hasMore: boolean;
            total: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  emailsGet: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EmailView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  eventsList: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['TrackedEventView'][];
            cursor: string | null;
            hasMore: boolean;
            total: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  eventsDeleteByName: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        eventName: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            deleted: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  eventsUsage: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        eventName: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Usage'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  eventsForContact: {
    parameters: {
      query?: {
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path: {
        contactId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['TrackedEventView'][];
            cursor: string | null;
            hasMore: boolean;
            total: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  eventsNames: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            names: string[];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  eventsStats: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EventStats'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  eventsTrackFromDashboard: {
    parameters: {
      query?: never;
      header?: {
        'idempotency-key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TrackEventDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
            data: components['schemas']['TrackEventResult'];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description The request conflicts with the current state: `IDEMPOTENCY_KEY_IN_USE`, `IDEMPOTENCY_KEY_REUSED` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `IDEMPOTENCY_KEY_IN_USE`, `IDEMPOTENCY_KEY_REUSED` (docs/errors.md)",
           *       "error": {
           *         "code": "IDEMPOTENCY_KEY_IN_USE",
           *         "message": "The request conflicts with the current state: `IDEMPOTENCY_KEY_IN_USE`, `IDEMPOTENCY_KEY_REUSED` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  healthLive: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            status: 'ok';
          };
        };
      };
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  healthReady: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every dependency of the process is up */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['HealthReport'];
        };
      };
      /** @description A dependency is down, or the process is starting or shutting down */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['HealthReport'];
        };
      };
      default: components['responses']['Error'];
    };
  };
  inboundList: {
    parameters: {
      query?: {
        contactId?: string;
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['InboundSummaryView'][];
            cursor: string | null;
            hasMore: boolean;
            total: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  inboundGet: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InboundMessageView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  linksManage: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The subscription preferences page */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description The link is forged or altered, or its contact or email is gone: a page saying so */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  linksManageChange: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        token: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': unknown;
      };
    };
    responses: {
      /** @description The preference is changed: a page saying so */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      400: components['responses']['BadRequest'];
      /** @description The link is forged or altered, or its contact or email is gone: a page saying so */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  openApiOpenapi: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The OpenAPI 3.1 document of this API (what `npm run openapi` writes to docs/openapi.json) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            openapi: string;
            info: Record<string, unknown>;
            paths: Record<string, unknown>;
          };
        };
      };
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  projectTeamListInvitations: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InvitationView'][];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  projectTeamRevokeInvitation: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        invitationId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  projectTeamList: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MemberView'][];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  projectTeamAdd: {
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
        'application/json': components['schemas']['AddMemberDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InvitationView'] | components['schemas']['MemberView'];
        };
      };
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InvitationView'] | components['schemas']['MemberView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      /** @description The request conflicts with the current state: `MEMBER_ALREADY_EXISTS` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `MEMBER_ALREADY_EXISTS` (docs/errors.md)",
           *       "error": {
           *         "code": "MEMBER_ALREADY_EXISTS",
           *         "message": "The request conflicts with the current state: `MEMBER_ALREADY_EXISTS` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  projectTeamRemove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        userId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      /** @description The request conflicts with the current state: `LAST_OWNER` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `LAST_OWNER` (docs/errors.md)",
           *       "error": {
           *         "code": "LAST_OWNER",
           *         "message": "The request conflicts with the current state: `LAST_OWNER` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  projectTeamChangeRole: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        userId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ChangeRoleDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MemberView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      /** @description The request conflicts with the current state: `LAST_OWNER` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `LAST_OWNER` (docs/errors.md)",
           *       "error": {
           *         "code": "LAST_OWNER",
           *         "message": "The request conflicts with the current state: `LAST_OWNER` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  securityProject: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SecurityView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  securityLift: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SuspensionView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      /** @description The request conflicts with the current state: `PROJECT_NOT_SUSPENDED` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `PROJECT_NOT_SUSPENDED` (docs/errors.md)",
           *       "error": {
           *         "code": "PROJECT_NOT_SUSPENDED",
           *         "message": "The request conflicts with the current state: `PROJECT_NOT_SUSPENDED` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  projectTeamSetupState: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            projectId: string;
            steps: {
              id: string;
              done: boolean;
            }[];
            completed: boolean;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  segmentsList: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SegmentView'][];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  segmentsCreate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateSegmentDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SegmentView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  segmentsGet: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SegmentView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  segmentsRemove: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      /** @description The request conflicts with the current state: `SEGMENT_IN_USE`, `SEGMENT_REFERENCED` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `SEGMENT_IN_USE`, `SEGMENT_REFERENCED` (docs/errors.md)",
           *       "error": {
           *         "code": "SEGMENT_IN_USE",
           *         "message": "The request conflicts with the current state: `SEGMENT_IN_USE`, `SEGMENT_REFERENCED` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  segmentsUpdate: {
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
        'application/json': components['schemas']['UpdateSegmentDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SegmentView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  segmentsCompute: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            added: number;
            removed: number;
            total: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  segmentMembersContacts: {
    parameters: {
      query?: {
        page?: number;
        pageSize?: number;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['MemberView2'][];
            total: number;
            page: number;
            pageSize: number;
            totalPages: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  segmentMembersAddMembers: {
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
        'application/json': components['schemas']['AddMembersDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AddMembersResult'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  segmentMembersRemoveMembers: {
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
        'application/json': components['schemas']['RemoveMembersDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            removed: number;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  segmentsRefresh: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SegmentView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  segmentsCount: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CountFilterDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            total: number;
            preview?: components['schemas']['MemberView2'][];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  linksSubscribeForm: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The subscribe page (a form to confirm) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description The link is forged or altered, or its contact or email is gone: a page saying so */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  linksSubscribe: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Subscribed: a page saying so */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description The link is forged or altered, or its contact or email is gone: a page saying so */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  linksClick: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The click is recorded; redirects to the target the signed link names */
      302: {
        headers: {
          /** @description The link's target */
          Location?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The link is forged or altered, or its target is not an http(s) URL: a page saying so */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  linksOpen: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A transparent 1×1 GIF (the open is recorded when the link is valid) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'image/gif': string;
        };
      };
      404: components['responses']['NotFound'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  templatesList: {
    parameters: {
      query?: {
        type?: 'marketing' | 'transactional';
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['TemplateView'][];
            cursor: string | null;
            hasMore: boolean;
            total: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  templatesCreate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateTemplateDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TemplateView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  templatesGet: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TemplateView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  templatesDelete: {
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
      /** @description Success */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      /** @description The request conflicts with the current state: `TEMPLATE_IN_USE` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `TEMPLATE_IN_USE` (docs/errors.md)",
           *       "error": {
           *         "code": "TEMPLATE_IN_USE",
           *         "message": "The request conflicts with the current state: `TEMPLATE_IN_USE` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  templatesUpdate: {
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
        'application/json': components['schemas']['UpdateTemplateDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TemplateView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  templatesDuplicate: {
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
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  templatesUsage: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TemplateUsage'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  linksUnsubscribeForm: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The unsubscribe page (a form to confirm) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description The link is forged or altered, or its contact or email is gone: a page saying so */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  linksUnsubscribe: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Unsubscribed: a page saying so */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description The link is forged or altered, or its contact or email is gone: a page saying so */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  uploadsServe: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        projectId: string;
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The image as uploaded (PNG, JPEG, GIF or WebP), immutable */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'image/*': string;
        };
      };
      404: components['responses']['NotFound'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  uploadsUpload: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': {
          file: string;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            url: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  meMe: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UserView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  meAcceptInvitation: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AcceptInvitationDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AcceptedInvitation'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description The request conflicts with the current state: `MEMBER_ALREADY_EXISTS` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `MEMBER_ALREADY_EXISTS` (docs/errors.md)",
           *       "error": {
           *         "code": "MEMBER_ALREADY_EXISTS",
           *         "message": "The request conflicts with the current state: `MEMBER_ALREADY_EXISTS` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  meList: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ProjectView'][];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  meCreate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateProjectDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            name: string;
            disabled: boolean;
            /** @enum {string} */
            role: 'OWNER' | 'ADMIN' | 'MEMBER';
            createdAt: string;
            /**
             * @description The live keys, and the test keys (`sk_test_…`, `pk_test_…`: sends that never reach a relay,
             *     docs/test-mode.md); a test key is null for a project created before test mode until its test
             *     keys are regenerated.
             */
            keys: {
              secret: components['schemas']['KeyView'] | null;
              public: components['schemas']['KeyView'] | null;
              testSecret: components['schemas']['KeyView'] | null;
              testPublic: components['schemas']['KeyView'] | null;
            };
            secretKey: string;
            publicKey: string;
            testSecretKey: string;
            testPublicKey: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  meDelete: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  meUpdate: {
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
        'application/json': components['schemas']['UpdateProjectDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ProjectView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  billingConsumption: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ConsumptionView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  stripeBillingInvoices: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['InvoiceView'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      /** @description The request conflicts with the current state: `BILLING_NOT_CONFIGURED` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `BILLING_NOT_CONFIGURED` (docs/errors.md)",
           *       "error": {
           *         "code": "BILLING_NOT_CONFIGURED",
           *         "message": "The request conflicts with the current state: `BILLING_NOT_CONFIGURED` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  billingLimits: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BillingLimitsView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  billingSetLimits: {
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
        'application/json': unknown;
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BillingLimitsView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  stripeBillingPortal: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            url: string;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      /** @description The request conflicts with the current state: `BILLING_NOT_CONFIGURED` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `BILLING_NOT_CONFIGURED` (docs/errors.md)",
           *       "error": {
           *         "code": "BILLING_NOT_CONFIGURED",
           *         "message": "The request conflicts with the current state: `BILLING_NOT_CONFIGURED` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  stripeBillingCheckout: {
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
        'application/json': components['schemas']['CheckoutDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            url: string;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      /** @description The request conflicts with the current state: `BILLING_NOT_CONFIGURED` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `BILLING_NOT_CONFIGURED` (docs/errors.md)",
           *       "error": {
           *         "code": "BILLING_NOT_CONFIGURED",
           *         "message": "The request conflicts with the current state: `BILLING_NOT_CONFIGURED` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  meRegenerateKeys: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            name: string;
            disabled: boolean;
            /** @enum {string} */
            role: 'OWNER' | 'ADMIN' | 'MEMBER';
            createdAt: string;
            /**
             * @description The live keys, and the test keys (`sk_test_…`, `pk_test_…`: sends that never reach a relay,
             *     docs/test-mode.md); a test key is null for a project created before test mode until its test
             *     keys are regenerated.
             */
            keys: {
              secret: components['schemas']['KeyView'] | null;
              public: components['schemas']['KeyView'] | null;
              testSecret: components['schemas']['KeyView'] | null;
              testPublic: components['schemas']['KeyView'] | null;
            };
            secretKey: string;
            publicKey: string;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  meRegenerateTestKeys: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            name: string;
            disabled: boolean;
            /** @enum {string} */
            role: 'OWNER' | 'ADMIN' | 'MEMBER';
            createdAt: string;
            /**
             * @description The live keys, and the test keys (`sk_test_…`, `pk_test_…`: sends that never reach a relay,
             *     docs/test-mode.md); a test key is null for a project created before test mode until its test
             *     keys are regenerated.
             */
            keys: {
              secret: components['schemas']['KeyView'] | null;
              public: components['schemas']['KeyView'] | null;
              testSecret: components['schemas']['KeyView'] | null;
              testPublic: components['schemas']['KeyView'] | null;
            };
            testSecretKey: string;
            testPublicKey: string;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  meReset: {
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
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  securityMine: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SecurityView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  sendExecute: {
    parameters: {
      query?: never;
      header?: {
        'idempotency-key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "to": "ada@example.com",
         *       "subject": "Welcome",
         *       "body": "<p>Hello {{name}}!</p>",
         *       "data": {
         *         "name": "Ada"
         *       }
         *     }
         */
        'application/json': {
          to:
            | (
                | string
                | {
                    /** Format: email */
                    email: string;
                    name?: string;
                  }
              )
            | (
                | string
                | {
                    /** Format: email */
                    email: string;
                    name?: string;
                  }
              )[];
          /** @description A template id: its subject and body, rendered with `data` */
          template?: string;
          subject?: string;
          body?: string;
          /**
           * @description The format of `body`
           * @enum {string}
           */
          type?: 'html' | 'markdown';
          from?:
            | string
            | {
                /** Format: email */
                email: string;
                name?: string;
              };
          /** Format: email */
          reply?: string;
          data?: {
            [key: string]: unknown;
          };
          subscribed?: boolean;
          headers?: {
            [key: string]: string;
          };
          attachments?: {
            filename: string;
            content: string;
            contentType?: string;
          }[];
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SendResult'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description The request conflicts with the current state: `IDEMPOTENCY_KEY_IN_USE`, `IDEMPOTENCY_KEY_REUSED` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `IDEMPOTENCY_KEY_IN_USE`, `IDEMPOTENCY_KEY_REUSED` (docs/errors.md)",
           *       "error": {
           *         "code": "IDEMPOTENCY_KEY_IN_USE",
           *         "message": "The request conflicts with the current state: `IDEMPOTENCY_KEY_IN_USE`, `IDEMPOTENCY_KEY_REUSED` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  sendExecuteBatch: {
    parameters: {
      query?: never;
      header?: {
        'x-batch-validation'?: string;
        'idempotency-key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example [
         *       {
         *         "to": "ada@example.com",
         *         "from": "hello@example.com",
         *         "subject": "Welcome",
         *         "body": "<p>Hello!</p>"
         *       },
         *       {
         *         "to": "grace@example.com",
         *         "template": "tpl_…",
         *         "data": {
         *           "plan": "pro"
         *         }
         *       }
         *     ]
         */
        'application/json': {
          to:
            | (
                | string
                | {
                    /** Format: email */
                    email: string;
                    name?: string;
                  }
              )
            | (
                | string
                | {
                    /** Format: email */
                    email: string;
                    name?: string;
                  }
              )[];
          /** @description A template id: its subject and body, rendered with `data` */
          template?: string;
          subject?: string;
          body?: string;
          /**
           * @description The format of `body`
           * @enum {string}
           */
          type?: 'html' | 'markdown';
          from?:
            | string
            | {
                /** Format: email */
                email: string;
                name?: string;
              };
          /** Format: email */
          reply?: string;
          data?: {
            [key: string]: unknown;
          };
          subscribed?: boolean;
          headers?: {
            [key: string]: string;
          };
          attachments?: {
            filename: string;
            content: string;
            contentType?: string;
          }[];
        }[];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BatchSendResult'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description The request conflicts with the current state: `IDEMPOTENCY_KEY_IN_USE`, `IDEMPOTENCY_KEY_REUSED` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `IDEMPOTENCY_KEY_IN_USE`, `IDEMPOTENCY_KEY_REUSED` (docs/errors.md)",
           *       "error": {
           *         "code": "IDEMPOTENCY_KEY_IN_USE",
           *         "message": "The request conflicts with the current state: `IDEMPOTENCY_KEY_IN_USE`, `IDEMPOTENCY_KEY_REUSED` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  eventsTrack: {
    parameters: {
      query?: never;
      header?: {
        'idempotency-key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "email": "ada@example.com",
         *       "event": "signed-up",
         *       "data": {
         *         "plan": "pro"
         *       }
         *     }
         */
        'application/json': components['schemas']['TrackEventDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
            data: components['schemas']['TrackEventResult'];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description The request conflicts with the current state: `IDEMPOTENCY_KEY_IN_USE`, `IDEMPOTENCY_KEY_REUSED` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `IDEMPOTENCY_KEY_IN_USE`, `IDEMPOTENCY_KEY_REUSED` (docs/errors.md)",
           *       "error": {
           *         "code": "IDEMPOTENCY_KEY_IN_USE",
           *         "message": "The request conflicts with the current state: `IDEMPOTENCY_KEY_IN_USE`, `IDEMPOTENCY_KEY_REUSED` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  verifyVerify: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['VerifyEmailDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
            data: components['schemas']['EmailVerification'];
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  endpointsList: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['WebhookEndpointView'][];
            cursor: string | null;
            hasMore: boolean;
            total: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  endpointsCreate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateWebhookEndpointDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookEndpointWithSecret'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description The request conflicts with the current state: `WEBHOOK_ENDPOINT_LIMIT` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `WEBHOOK_ENDPOINT_LIMIT` (docs/errors.md)",
           *       "error": {
           *         "code": "WEBHOOK_ENDPOINT_LIMIT",
           *         "message": "The request conflicts with the current state: `WEBHOOK_ENDPOINT_LIMIT` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  endpointsGet: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookEndpointView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  endpointsRemove: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            success: true;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  endpointsUpdate: {
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
        'application/json': components['schemas']['UpdateWebhookEndpointDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookEndpointView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  deliveriesLog: {
    parameters: {
      query?: {
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['WebhookDeliveryView'][];
            cursor: string | null;
            hasMore: boolean;
            total: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  deliveriesGet: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookDeliveryView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  deliveriesReplayOne: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookDeliveryView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  deliveriesReplayRange: {
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
        'application/json': components['schemas']['ReplayRangeDto'];
      };
    };
    responses: {
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            replayed: number;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  endpointsRotateSecret: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookEndpointWithSecret'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  deliveriesTest: {
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
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookDeliveryView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  genericWebhookReceive: {
    parameters: {
      query?: never;
      header?: {
        'x-herald-signature'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookReceipt'];
        };
      };
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  stripeWebhookReceive: {
    parameters: {
      query?: never;
      header?: {
        'stripe-signature'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookReceipt2'];
        };
      };
      /** @description The request conflicts with the current state: `BILLING_NOT_CONFIGURED` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `BILLING_NOT_CONFIGURED` (docs/errors.md)",
           *       "error": {
           *         "code": "BILLING_NOT_CONFIGURED",
           *         "message": "The request conflicts with the current state: `BILLING_NOT_CONFIGURED` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  sesWebhookReceive: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': unknown;
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookReceipt'];
        };
      };
      400: components['responses']['BadRequest'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  workflowsList: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WorkflowView'][];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  workflowsCreate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateWorkflowDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WorkflowView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  workflowsGet: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WorkflowView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  workflowsRemove: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            success: boolean;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      /** @description The request conflicts with the current state: `WORKFLOW_HAS_ACTIVE_EXECUTIONS` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `WORKFLOW_HAS_ACTIVE_EXECUTIONS` (docs/errors.md)",
           *       "error": {
           *         "code": "WORKFLOW_HAS_ACTIVE_EXECUTIONS",
           *         "message": "The request conflicts with the current state: `WORKFLOW_HAS_ACTIVE_EXECUTIONS` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  workflowsUpdate: {
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
        'application/json': components['schemas']['UpdateWorkflowDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WorkflowView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  executionsExecutionsList: {
    parameters: {
      query?: {
        status?: 'RUNNING' | 'WAITING' | 'COMPLETED' | 'EXITED' | 'FAILED' | 'CANCELLED';
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            data: components['schemas']['ExecutionView'][];
            cursor: string;
            hasMore: boolean;
            total: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  executionsStart: {
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
        'application/json': components['schemas']['StartExecutionDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ExecutionView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      /** @description The request conflicts with the current state: `WORKFLOW_EXECUTION_NOT_STARTED` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `WORKFLOW_EXECUTION_NOT_STARTED` (docs/errors.md)",
           *       "error": {
           *         "code": "WORKFLOW_EXECUTION_NOT_STARTED",
           *         "message": "The request conflicts with the current state: `WORKFLOW_EXECUTION_NOT_STARTED` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  executionsExecution: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        executionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ExecutionView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  executionsCancel: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        executionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ExecutionView'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      /** @description The request conflicts with the current state: `WORKFLOW_EXECUTION_NOT_ACTIVE` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `WORKFLOW_EXECUTION_NOT_ACTIVE` (docs/errors.md)",
           *       "error": {
           *         "code": "WORKFLOW_EXECUTION_NOT_ACTIVE",
           *         "message": "The request conflicts with the current state: `WORKFLOW_EXECUTION_NOT_ACTIVE` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  executionsCancelAll: {
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
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            cancelled: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  simulateSimulate: {
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
        'application/json': components['schemas']['SimulateDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            path: components['schemas']['SimStep'][];
            /**
             * @description WAITING: the run stopped at a WAIT_FOR_EVENT without a timeout (no event arrives in a dry run).
             * @enum {string}
             */
            status: 'WAITING' | 'COMPLETED' | 'EXITED';
            endedAt: string;
            emails: {
              stepId: string;
              to: string;
              templateId: string;
              subject: string | null;
              skipped?: string;
            }[];
            webhooks: {
              stepId: string;
              method: string;
              url: string;
              body: string | null;
            }[];
            contactUpdates: {
              stepId: string;
              data?: {
                [key: string]: unknown;
              };
              /** @enum {boolean} */
              subscribed?: false | true;
            }[];
            workflowId: string;
            version: number;
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  workflowsAddStep: {
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
        'application/json': components['schemas']['CreateStepDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['StepView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  workflowsRemoveStep: {
    parameters: {
      query?: {
        splice?: boolean;
      };
      header?: never;
      path: {
        id: string;
        stepId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            success: boolean;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      /** @description The request conflicts with the current state: `WORKFLOW_STEP_CANNOT_SPLICE` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `WORKFLOW_STEP_CANNOT_SPLICE` (docs/errors.md)",
           *       "error": {
           *         "code": "WORKFLOW_STEP_CANNOT_SPLICE",
           *         "message": "The request conflicts with the current state: `WORKFLOW_STEP_CANNOT_SPLICE` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  workflowsUpdateStep: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        stepId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateStepDto'];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['StepView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  workflowsAddTransition: {
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
        'application/json': components['schemas']['CreateTransitionDto'];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TransitionView'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      /** @description The request conflicts with the current state: `TRANSITION_EXISTS` (docs/errors.md) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "success": false,
           *       "message": "The request conflicts with the current state: `TRANSITION_EXISTS` (docs/errors.md)",
           *       "error": {
           *         "code": "TRANSITION_EXISTS",
           *         "message": "The request conflicts with the current state: `TRANSITION_EXISTS` (docs/errors.md)",
           *         "statusCode": 409,
           *         "requestId": "req-8f1c2d"
           *       },
           *       "timestamp": "2025-01-01T12:00:00.000Z"
           *     }
           */
          'application/json': components['schemas']['ErrorBody'];
        };
      };
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationError'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  workflowsRemoveTransition: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        transitionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            success: boolean;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  simulateFields: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            contact: {
              field: string;
              type: string;
            }[];
            events: {
              [key: string]: {
                field: string;
                type: string;
              }[];
            };
            context: {
              field: string;
              type: string;
            }[];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['RateLimited'];
      503: components['responses']['ServiceUnavailable'];
      default: components['responses']['Error'];
    };
  };
  webhookEmailSent: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEmailSent'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookEmailDelivered: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEmailDelivered'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookEmailOpened: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEmailOpened'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookEmailClicked: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEmailClicked'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookEmailBounced: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEmailBounced'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookEmailComplained: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEmailComplained'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookEmailFailed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEmailFailed'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookEmailReceived: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEmailReceived'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookContactCreated: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookContactCreated'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookContactUpdated: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookContactUpdated'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookContactSubscribed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookContactSubscribed'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookContactUnsubscribed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookContactUnsubscribed'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookContactDeleted: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookContactDeleted'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookSegmentEntered: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookSegmentEntered'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookSegmentExited: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookSegmentExited'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookWorkflowStarted: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookWorkflowStarted'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookWorkflowFinished: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookWorkflowFinished'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookCampaignSending: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookCampaignSending'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookCampaignSent: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookCampaignSent'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  webhookWebhookTest: {
    parameters: {
      query?: never;
      header: {
        /** @description The event's id: the same in every attempt and replay; de-duplicate on it. */
        'webhook-id': string;
        /** @description When this attempt was signed, in Unix seconds. */
        'webhook-timestamp': string;
        /** @description Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookWebhookTest'];
      };
    };
    responses: {
      /** @description Delivered: any 2xx answer. Anything else, or no answer in time, is retried. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
}
