// Examiners: student feedback and contact enquiries.
import {
  enquiryTablePageSchema,
  enquiryTableQuerySchema,
  feedbackTablePageSchema,
  feedbackTableQuerySchema,
} from "../admin-tables.ts";
import { listOf, messageResponseSchema, pagingQuerySchema } from "../common.ts";
import { contactEnquirySchema } from "../contact.ts";
import {
  feedbackCreatedSchema,
  feedbackInputSchema,
  feedbackListSchema,
  feedbackSchema,
  feedbackUpdateSchema,
} from "../feedback.ts";

import { admin, endpoint, exportQuery } from "./definition.ts";

export const feedbackAndEnquiryEndpoints = {
  allFeedback: endpoint({
    method: "GET",
    path: "/feedback/all",
    access: admin("examiner"),
    summary:
      "Feedback with contact details, hidden entries included: the first 1,000 unless paged (total in X-Total-Count)",
    query: pagingQuerySchema,
    response: feedbackListSchema,
  }),
  feedbackTable: endpoint({
    method: "GET",
    path: "/feedback/table",
    access: admin("examiner"),
    summary: "One page of the feedback table: search name, USN or e-mail; filter by batch and visibility",
    query: feedbackTableQuerySchema,
    response: feedbackTablePageSchema,
  }),
  createFeedback: endpoint({
    method: "POST",
    path: "/feedback",
    access: admin("examiner", "feedback.create"),
    summary: "Add a student's feedback",
    body: feedbackInputSchema,
    status: 201,
    response: feedbackCreatedSchema,
  }),
  setFeedbackHidden: endpoint({
    method: "PATCH",
    path: "/feedback/:id",
    access: admin("examiner", "feedback.update"),
    summary: "Hide feedback from the home page, or show it again",
    body: feedbackUpdateSchema,
    response: feedbackSchema,
  }),
  deleteFeedback: endpoint({
    method: "DELETE",
    path: "/feedback/:id",
    access: admin("examiner", "feedback.delete"),
    summary: "Delete feedback",
    response: messageResponseSchema,
  }),
  feedbackExport: endpoint({
    method: "GET",
    path: "/feedback/export.csv",
    access: admin("examiner", "export.feedback"),
    summary: "All feedback (or what matches the table's filters) as CSV, streamed",
    query: exportQuery(feedbackTableQuerySchema),
    response: "file",
  }),
  enquiries: endpoint({
    method: "GET",
    path: "/contact",
    access: admin("examiner"),
    summary: "Contact enquiries, newest first: the first 1,000 unless paged (total in X-Total-Count)",
    query: pagingQuerySchema,
    response: listOf(contactEnquirySchema),
  }),
  enquiryTable: endpoint({
    method: "GET",
    path: "/contact/table",
    access: admin("examiner"),
    summary: "One page of the enquiries table: search name, e-mail, subject or programme; sort",
    query: enquiryTableQuerySchema,
    response: enquiryTablePageSchema,
  }),
  enquiryExport: endpoint({
    method: "GET",
    path: "/contact/export.csv",
    access: admin("examiner", "export.enquiries"),
    summary: "Every enquiry (or those matching the table's search) as CSV, streamed",
    query: exportQuery(enquiryTableQuerySchema),
    response: "file",
  }),
};
