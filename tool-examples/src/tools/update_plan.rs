//! `update_plan`: the model's task checklist, kept where a UI can render it (sync, state).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::{Mutex, PoisonError};
use tool_runtime::{tool, State, ToolError};

/// The most steps a plan may have; a longer plan is a sign it should be split.
const MAX_STEPS: usize = 50;

/// Where a step stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    /// Not started yet.
    Pending,
    /// Being worked on now; at most one step can be in progress.
    InProgress,
    /// Done.
    Completed,
}

/// One step of a plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanItem {
    /// What the step does, in one short sentence.
    pub step: String,
    /// Where the step stands.
    pub status: StepStatus,
}

/// A plan as last set by the model.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Plan {
    /// Why the plan changed, if the model said.
    pub explanation: Option<String>,
    /// The steps, in order.
    pub items: Vec<PlanItem>,
}

/// The current plan, shared between the tool and whatever displays it; give one to the
/// registry with `.state(PlanBoard::default())`.
#[derive(Debug, Default)]
pub struct PlanBoard {
    plan: Mutex<Plan>,
}

impl PlanBoard {
    /// A copy of the current plan.
    pub fn current(&self) -> Plan {
        // A panic elsewhere while holding the lock leaves a whole plan behind: still usable.
        self.plan
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn replace(&self, plan: Plan) {
        *self.plan.lock().unwrap_or_else(PoisonError::into_inner) = plan;
    }
}

/// Update the task plan: a checklist of steps shown to the user.
///
/// Send the whole plan each time, every step with its status; it replaces the previous one.
/// Keep at most one step `in_progress`, and mark steps `completed` as you finish them.
#[tool(idempotent)]
pub fn update_plan(
    /// Why the plan changed, in a sentence.
    explanation: Option<String>,
    /// The steps, in order.
    plan: Vec<PlanItem>,
    board: State<PlanBoard>,
) -> Result<String, ToolError> {
    if plan.len() > MAX_STEPS {
        return Err(ToolError::new(format!(
            "the plan has {} steps; keep it to {MAX_STEPS} or fewer by merging small steps",
            plan.len()
        )));
    }
    if let Some(n) = plan.iter().position(|item| item.step.trim().is_empty()) {
        return Err(ToolError::new(format!(
            "step {} has no text: describe every step in a short sentence",
            n + 1
        )));
    }
    let in_progress: Vec<String> = plan
        .iter()
        .enumerate()
        .filter(|(_, item)| item.status == StepStatus::InProgress)
        .map(|(n, _)| (n + 1).to_string())
        .collect();
    if in_progress.len() > 1 {
        return Err(ToolError::new(format!(
            "steps {} are in_progress, but at most one step can be in progress at a time; mark the others pending or completed",
            in_progress.join(", ")
        )));
    }
    let explanation = explanation
        .map(|e| e.trim().to_owned())
        .filter(|e| !e.is_empty());
    let plan = Plan {
        explanation,
        items: plan
            .into_iter()
            .map(|item| PlanItem {
                step: item.step.trim().to_owned(),
                status: item.status,
            })
            .collect(),
    };
    let rendered = render(&plan);
    board.replace(plan);
    Ok(rendered)
}

/// The plan as a Markdown checklist, with a count of the steps done.
fn render(plan: &Plan) -> String {
    if plan.items.is_empty() {
        return "Plan cleared.".to_owned();
    }
    let done = plan
        .items
        .iter()
        .filter(|i| i.status == StepStatus::Completed)
        .count();
    let mut out = format!("Plan updated ({done}/{} done)", plan.items.len());
    if let Some(explanation) = &plan.explanation {
        out.push_str(": ");
        out.push_str(explanation);
    }
    out.push('\n');
    for item in &plan.items {
        let (mark, note) = match item.status {
            StepStatus::Pending => ("[ ]", ""),
            StepStatus::InProgress => ("[~]", " (in progress)"),
            StepStatus::Completed => ("[x]", ""),
        };
        out.push_str(&format!("- {mark} {}{note}\n", item.step));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use tool_runtime::ErrorCode;

    fn item(step: &str, status: StepStatus) -> PlanItem {
        PlanItem {
            step: step.to_owned(),
            status,
        }
    }

    #[test]
    fn renders_and_stores_the_plan() {
        let board = State(Arc::new(PlanBoard::default()));
        let out = update_plan(
            Some(" Found the bug ".into()),
            vec![
                item("Read the code", StepStatus::Completed),
                item("Fix the parser", StepStatus::InProgress),
                item("Add a test", StepStatus::Pending),
            ],
            board.clone(),
        )
        .unwrap();
        assert_eq!(
            out,
            "Plan updated (1/3 done): Found the bug\n- [x] Read the code\n- [~] Fix the parser (in progress)\n- [ ] Add a test\n"
        );
        let plan = board.current();
        assert_eq!(plan.explanation.as_deref(), Some("Found the bug"));
        assert_eq!(
            plan.items[1],
            item("Fix the parser", StepStatus::InProgress)
        );
    }

    #[test]
    fn refuses_two_steps_in_progress_and_keeps_the_old_plan() {
        let board = State(Arc::new(PlanBoard::default()));
        update_plan(None, vec![item("a", StepStatus::Pending)], board.clone()).unwrap();
        let err = update_plan(
            None,
            vec![
                item("a", StepStatus::InProgress),
                item("b", StepStatus::Completed),
                item("c", StepStatus::InProgress),
            ],
            board.clone(),
        )
        .unwrap_err();
        assert!(err.message.contains("steps 1, 3"), "{}", err.message);
        assert_eq!(board.current().items, vec![item("a", StepStatus::Pending)]);
    }

    #[test]
    fn refuses_empty_steps_and_clears_on_empty_plan() {
        let board = State(Arc::new(PlanBoard::default()));
        let err =
            update_plan(None, vec![item("  ", StepStatus::Pending)], board.clone()).unwrap_err();
        assert!(
            err.message.contains("step 1 has no text"),
            "{}",
            err.message
        );
        assert_eq!(
            update_plan(None, vec![], board.clone()).unwrap(),
            "Plan cleared."
        );
        assert!(board.current().items.is_empty());
    }

    #[test]
    fn invalid_statuses_are_argument_errors() {
        let dir = tempfile::tempdir().unwrap();
        let registry = crate::registry(dir.path().to_path_buf()).unwrap();
        let out = registry.call_blocking(
            "update_plan",
            r#"{"plan": [{"step": "a", "status": "done"}]}"#,
        );
        assert_eq!(out.as_error().unwrap().code, ErrorCode::InvalidArguments);
        let out = registry.call_blocking(
            "update_plan",
            r#"{"plan": [{"step": "a", "status": "pending", "owner": "me"}]}"#,
        );
        assert_eq!(out.as_error().unwrap().code, ErrorCode::InvalidArguments);
        let out = registry.call_blocking(
            "update_plan",
            r#"{"plan": [{"step": "a", "status": "in_progress"}]}"#,
        );
        assert_eq!(
            out.to_model_text(),
            "Plan updated (0/1 done)\n- [~] a (in progress)\n"
        );
    }

    #[test]
    fn the_schema_documents_the_statuses() {
        let dir = tempfile::tempdir().unwrap();
        let registry = crate::registry(dir.path().to_path_buf()).unwrap();
        let schema = registry
            .get("update_plan")
            .unwrap()
            .input_schema()
            .to_string();
        for word in ["pending", "in_progress", "completed", "at most one step"] {
            assert!(schema.contains(word), "{word} missing from {schema}");
        }
    }
}
