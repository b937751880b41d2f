//! The app's views: one component per part of the page, each with `PartialEq` props so a
//! running simulation re-renders the charts and the progress line, not the editor.

pub mod app;
pub mod changes_panel;
pub mod chart_card;
pub mod charts_panel;
pub mod controls;
pub mod draw_queue;
pub mod editor_panel;
pub mod header;
pub mod lecture_view;
pub mod lesson_panel;
pub mod network_view;
pub mod overlay;
pub mod packet_view;
pub mod playground;
pub mod preset_info;
pub mod summary;
pub mod sweep_panel;
pub mod train_panel;
pub mod warbler_panel;
