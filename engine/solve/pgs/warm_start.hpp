// Initial multipliers for the continuous PGS (wang-servin-berglund Sec. 3).
#pragma once

#include "solve/rows/body_map.hpp"

#include "collide/contact_set.hpp"
#include "core/material.hpp"
#include "core/settings.hpp"
#include "solve/rows/solver_body.hpp"
#include "solve/rows/solver_contact.hpp"

#include <span>

namespace ndem {

/// Sets λ₀ of every row. History based: λ₀ = β λ_prev of the same contact (Eq. 7), carried
/// as physical impulses so that a changed Hertz scale or tangent frame does not distort it.
/// Model based: the static SPOOK solution λ_n = h δ̄/ε and regularised friction and rolling
/// from the current slip (Eq. 9–11). Rows of a type with warm starting off start at zero;
/// all are projected onto their bounds. Then, if enabled, v += M⁻¹ Gᵀ λ₀ (Eq. 8).
void warmStartRows(std::span<SolverContact> rows, const ContactSet& contacts,
                   const ContactHistory& history, const MaterialTable& materials,
                   const StepSettings& settings, std::span<SolverBody> bodies,
                   const BodyMap& map = {});

/// The multipliers of one row as warmStartRows sets them (no velocity change).
void warmStartRow(SolverContact& row, const ContactSet& contacts, const ContactHistory& history,
                  const MaterialTable& materials, const StepSettings& settings,
                  std::span<const SolverBody> bodies, const BodyMap& map = {});

/// Whether warmStartRow reads the bodies' velocities (the law's estimate of the slip does;
/// the history does not, so its rows can be warm-started as they are built).
bool warmStartReadsVelocities(const StepSettings& settings);

}  // namespace ndem
